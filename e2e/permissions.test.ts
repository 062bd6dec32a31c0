import { randomUUID } from 'node:crypto';
import { forbiddenText } from '@coin/contracts';
import type { Stack } from '@coin/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { activeSigningKey } from './support/signing-keys.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let partner: RegisteredPartner;
let apiKey: string;

const KEYS = '/api/v1/ufel/partners/api-keys';

beforeAll(async () => {
  stack = await stackWith(['identity', 'wallet'], { API_KEY_CACHE_MS: '0', AUTH_RATE_LIMIT_MAX: '1000' });
  partner = await registerAndLogin(stack.api);
  const created = await stack.api.post(KEYS, { name: 'server' }, { token: partner.accessToken });
  expect(created.status).toBe(200);
  apiKey = created.body.data.key;
});

afterAll(async () => {
  await stack?.stop();
});

function expectForbidden(res: { status: number; body: any }, appErrorCode: string, error: string) {
  expect(res.status).toBe(403);
  expect(res.body).toEqual({
    status: 'failed',
    message: 'forbidden',
    data: { errorType: 'forbidden', appErrorCode, error },
  });
}

/** An access token signed as identity signs one, with the claims given. */
async function sessionToken(claims: Record<string, unknown>): Promise<string> {
  const { kid, privateKey } = await activeSigningKey(stack.env);
  return new SignJWT({ typ: 'access', ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid })
    .setSubject(partner.partnerId)
    .setIssuer('coin-rewards/identity')
    .setAudience('coin-rewards/api')
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime('5m')
    .sign(privateKey);
}

describe('permissions at the gateway', () => {
  it('refuses an API key the session-only operations, naming the permission, before the body is read', async () => {
    expectForbidden(
      await stack.api.post(KEYS, { name: 'from a key' }, { token: apiKey }),
      'FORBIDDEN',
      forbiddenText.sessionOnly('credentials'),
    );
    expectForbidden(
      await stack.api.get(KEYS, { token: apiKey }),
      'FORBIDDEN',
      "This operation needs a login session: an API key cannot hold the 'credentials' permission",
    );
    expectForbidden(
      await stack.api.put('/api/v1/laas/coins/treasury', { issuanceLimit: null }, { token: apiKey }),
      'FORBIDDEN',
      forbiddenText.sessionOnly('treasury'),
    );
    // Refused from the headers alone: a body the operation would refuse as invalid is never looked at.
    expectForbidden(
      await stack.api.post(KEYS, undefined, { token: apiKey, raw: '{"name": ' }),
      'FORBIDDEN',
      forbiddenText.sessionOnly('credentials'),
    );
    // What the key may do still works.
    expect((await stack.api.get('/api/v1/ufel/partners/me', { token: apiKey })).status).toBe(200);
  });

  it("refuses a member's session what its role lacks, naming the permission", async () => {
    const support = await sessionToken({ role: 'support', auth_time: Math.floor(Date.now() / 1000) });
    expectForbidden(
      await stack.api.post(
        '/api/v1/laas/coins/transfer-to-user-wallet',
        { userId: randomUUID(), coins: 1 },
        { token: support },
      ),
      'FORBIDDEN',
      "This credential lacks the 'coins' permission",
    );
    expect((await stack.api.get('/api/v1/ufel/partners/me', { token: support })).status).toBe(200);
  });

  it('asks for a recent password before managing credentials or the issuance limit', async () => {
    const stale = await sessionToken({ auth_time: Math.floor(Date.now() / 1000) - 600 });
    const none = await sessionToken({});
    for (const token of [stale, none]) {
      expectForbidden(
        await stack.api.post(KEYS, { name: 'late' }, { token }),
        'STEP_UP_REQUIRED',
        forbiddenText.stepUp(),
      );
      expectForbidden(
        await stack.api.put('/api/v1/laas/coins/treasury', { issuanceLimit: null }, { token }),
        'STEP_UP_REQUIRED',
        forbiddenText.stepUp(),
      );
      // Listing keys shows no secret: a session needs no recent password for it.
      expect((await stack.api.get(KEYS, { token })).status).toBe(200);
    }
    // A login is a password just entered.
    const fresh = await stack.api.post(KEYS, { name: 'fresh' }, { token: partner.accessToken });
    expect(fresh.status).toBe(200);
    // A refreshed token keeps its login's auth_time: refreshing does not stand for a password.
    const refreshed = await stack.api.post('/api/v1/ufel/partners/refresh', {
      refreshToken: partner.refreshToken,
    });
    expect(refreshed.status).toBe(200);
    const again = await stack.api.post(
      KEYS,
      { name: 'after refresh' },
      { token: refreshed.body.data.tokens.accessToken },
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});
