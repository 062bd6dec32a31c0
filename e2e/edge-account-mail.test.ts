import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mailbox, signUpBody, stack, useAccountStack, wait } from './support/account-users.ts';

const PER_DAY = 3;

useAccountStack({
  AUTH_RATE_LIMIT_MAX: '1000',
  EMAIL_CODE_RESEND_SECONDS: '1',
  EMAIL_CODE_MAX_PER_DAY: String(PER_DAY),
});

const mailsTo = (email: string) => mailbox.received.filter((m) => m.to.includes(email.toLowerCase()));

describe('account-user mail carries only our words', () => {
  it('puts none of the sign-up text in the mail', async () => {
    const fullname = 'Urgent: your bank needs you at https://phish.example now';
    const body = signUpBody({ fullname });
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    await mailbox.nextCode(body.email);
    const [mail] = mailsTo(body.email);
    expect(mail.raw).not.toContain('phish.example');
    expect(mail.raw).not.toContain('Urgent');
    expect(mail.raw).not.toContain(body.tag);
  });

  it(`mails at most ${PER_DAY} codes a day to one account, however often resend is called`, async () => {
    const body = signUpBody();
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    for (let i = 0; i < PER_DAY + 2; i++) {
      await wait(1100);
      expect((await stack.api.post('/api/v1/user/resend-code', { email: body.email })).status).toBe(200);
    }
    await wait(500);
    expect(mailsTo(body.email)).toHaveLength(PER_DAY);
  });

  it('answers sign-up, verify and resend alike whether or not the e-mail has an account', async () => {
    const known = signUpBody();
    expect((await stack.api.post('/api/v1/user', known)).status).toBe(200);
    const unknown = `nobody-${randomUUID()}@example.com`;
    const shape = (res: { status: number; body: any }) => ({
      status: res.status,
      message: res.body.message,
      keys: Object.keys(res.body.data ?? {}).sort(),
      data: res.status === 200 ? undefined : res.body.data,
    });
    for (const [path, of] of [
      ['/api/v1/user/verify-email', (email: string) => ({ email, code: '000000' })],
      ['/api/v1/user/resend-code', (email: string) => ({ email })],
      ['/api/v1/user', (email: string) => signUpBody({ email })],
    ] as const) {
      const a = shape(await stack.api.post(path, of(known.email)));
      const b = shape(await stack.api.post(path, of(unknown)));
      expect(a, path).toEqual(b);
      expect(a.status, path).not.toBe(404);
    }
  });
});
