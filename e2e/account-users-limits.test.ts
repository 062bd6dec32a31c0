import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '@coin/testing';
import { describe, expect, it } from 'vitest';
import { expectFailure, mailbox, signUpBody, stack, useAccountStack, wait } from './support/account-users.ts';

useAccountStack({
  // Codes valid two seconds, three sign-ups or verifications per address and minute.
  AUTH_RATE_LIMIT_MAX: '3',
  EMAIL_CODE_TTL_SECONDS: '2',
});

describe('expiry and per-address limits', () => {
  it('refuses a code after it expired', async () => {
    const body = signUpBody();
    const res = await stack.api.post('/api/v1/user', body);
    expect(res.status, res.text).toBe(200);
    const code = await mailbox.nextCode(body.email);
    await wait(Math.max(0, Date.parse(res.body.data.emailCodeExpiresAt) - Date.now()) + 50);
    expectFailure(
      await stack.api.post('/api/v1/user/verify-email', { email: body.email, code }),
      422,
      'INVALID_CODE',
    );
  });

  it('limits sign-up and verification per client address: 429 envelope with Retry-After', async () => {
    for (const [path, makeBody] of [
      ['/api/v1/user', () => signUpBody()],
      ['/api/v1/user/verify-email', () => ({ email: `nobody-${randomUUID()}@example.com`, code: '123456' })],
    ] as const) {
      let limited: ApiResponse | undefined;
      for (let i = 0; i < 4 && !limited; i++) {
        const res = await stack.api.post(path, makeBody());
        if (res.status === 429) limited = res;
      }
      expect(limited, `${path} was never limited`).toBeDefined();
      expect(limited?.body).toMatchObject({
        status: 'failed',
        data: { errorType: 'rate_limited', appErrorCode: 'RATE_LIMITED' },
      });
      expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
