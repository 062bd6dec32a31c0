import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  expectFailure,
  expectFieldType,
  mailbox,
  SPEC_FIELDS,
  signUpBody,
  stack,
  TAG_TAKEN,
  useAccountStack,
  wait,
} from './support/account-users.ts';

useAccountStack({
  // Codes valid a minute, resend allowed every second, a generous per-address limit.
  AUTH_RATE_LIMIT_MAX: '1000',
  EMAIL_CODE_TTL_SECONDS: '60',
  EMAIL_CODE_RESEND_SECONDS: '1',
});

describe('sign-up (POST /api/v1/user)', () => {
  it('returns every Account user field of the specification, with its type, and no secret', async () => {
    const body = signUpBody();
    const res = await stack.api.post('/api/v1/user', body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toMatch(/check your email/i);
    expect(res.body.message).toMatch(/one-time code/i);
    const user = res.body.data;
    expect(Object.keys(user).sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
    for (const [field, kind] of Object.entries(SPEC_FIELDS)) expectFieldType(field, user[field], kind);
    expect(user).toMatchObject({
      fullname: body.fullname,
      tag: body.tag,
      email: body.email,
      phone: body.phone,
      dateOfBirth: body.dateOfBirth,
      countryCode: body.countryCode,
      isAdult: true,
      type: 'user',
      status: 'active',
    });
    expect(Math.abs(Date.parse(user.dateJoined) - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(user.emailCodeExpiresAt)).toBeGreaterThan(Date.now());
    const code = await mailbox.nextCode(body.email);
    expect(res.text).not.toContain(body.password);
    expect(res.text).not.toContain(code);
    expect(res.text).not.toContain('argon2');
  });

  it('refuses a taken tag, compared without case, with the exact envelope', async () => {
    const first = signUpBody();
    expect((await stack.api.post('/api/v1/user', first)).status).toBe(200);
    for (const tag of [first.tag, first.tag.toUpperCase()]) {
      const res = await stack.api.post('/api/v1/user', signUpBody({ tag }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual(TAG_TAKEN);
    }
  });

  it('lets exactly one of 20 concurrent sign-ups with one tag win', async () => {
    const tag = `race_${randomUUID().slice(0, 8)}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => stack.api.post('/api/v1/user', signUpBody({ tag }))),
    );
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) expect(r.body).toEqual(TAG_TAKEN);
  });

  it('answers an e-mail already used, whatever its case, as a new one, storing and sending nothing', async () => {
    const first = signUpBody();
    expect((await stack.api.post('/api/v1/user', first)).status).toBe(200);
    const code = await mailbox.nextCode(first.email);
    const again = signUpBody({ email: first.email.toUpperCase() });
    const res = await stack.api.post('/api/v1/user', again);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ email: first.email, tag: again.tag, emailVerified: false });
    // The account is the first sign-up's: its code still verifies it, and no second mail went out.
    const ok = await stack.api.post('/api/v1/user/verify-email', { email: first.email, code });
    expect(ok.body.data.tag).toBe(first.tag);
    expect(mailbox.received.filter((m) => m.to.includes(first.email))).toHaveLength(1);
  });

  it('names the field of bad input in the 400 envelope', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ confirmPassword: 'something else entirely' }, 'confirmPassword must match password'],
      [{ dateOfBirth: '1990-02-30' }, 'dateOfBirth must be a valid date (YYYY-MM-DD)'],
      [{ dateOfBirth: '10/12/1990' }, 'dateOfBirth must be a valid date (YYYY-MM-DD)'],
      [{ dateOfBirth: '2999-01-01' }, 'dateOfBirth must not be in the future'],
      [{ countryCode: '234' }, 'countryCode must be a plus sign followed by 1 to 4 digits'],
      [{ email: 'not-an-email' }, 'email must be a valid email'],
      [{ tag: undefined }, 'tag is required'],
      [{ tag: 'a b' }, 'tag must be 3 to 30 letters, digits or underscores'],
      [{ isAdult: 'yes' }, 'isAdult must be a boolean'],
      [{ phone: '+234 801' }, 'phone must be 4 to 15 digits'],
    ];
    for (const [overrides, error] of cases) {
      const res = await stack.api.post('/api/v1/user', signUpBody(overrides));
      expect(res.body, JSON.stringify(overrides)).toEqual({
        status: 'failed',
        message: 'invalid data provided',
        data: { errorType: 'invalid', appErrorCode: 'Bad request', error },
      });
      expect(res.status).toBe(400);
    }
  });
});

describe('e-mail verification', () => {
  it('delivers the code to the SMTP server; it verifies once', async () => {
    const body = signUpBody();
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    const code = await mailbox.nextCode(body.email);
    expect(code).toMatch(/^\d{6}$/);

    const res = await stack.api.post('/api/v1/user/verify-email', { email: body.email, code });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('success');
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
    expect(res.body.data.emailVerified).toBe(true);
    expect(Math.abs(Date.parse(res.body.data.emailVerifiedAt) - Date.now())).toBeLessThan(60_000);
    expect(res.body.data.emailCodeExpiresAt).toBeNull();

    // Used once: the same refusal as any other, and a resend sends nothing.
    expectFailure(
      await stack.api.post('/api/v1/user/verify-email', { email: body.email, code }),
      422,
      'INVALID_CODE',
    );
    expect((await stack.api.post('/api/v1/user/resend-code', { email: body.email })).status).toBe(200);
  });

  it('refuses the right code after too many wrong ones, until a new code is sent', async () => {
    const body = signUpBody();
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    const code = await mailbox.nextCode(body.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      expectFailure(
        await stack.api.post('/api/v1/user/verify-email', { email: body.email, code: wrong }),
        422,
        'INVALID_CODE',
        'the code is incorrect or has expired; request a new code',
      );
    }
    expectFailure(
      await stack.api.post('/api/v1/user/verify-email', { email: body.email, code }),
      422,
      'INVALID_CODE',
    );

    await wait(1100);
    const resent = await stack.api.post('/api/v1/user/resend-code', { email: body.email });
    expect(resent.status, resent.text).toBe(200);
    const fresh = await mailbox.nextCode(body.email);
    const ok = await stack.api.post('/api/v1/user/verify-email', { email: body.email, code: fresh });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.emailVerified).toBe(true);
  });

  it('counts concurrent wrong guesses one by one', async () => {
    const body = signUpBody();
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    const code = await mailbox.nextCode(body.email);
    const wrong = code === '999999' ? '999998' : '999999';
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () =>
        stack.api.post('/api/v1/user/verify-email', { email: body.email, code: wrong }),
      ),
    );
    expect(guesses.map((g) => g.body.data.appErrorCode)).toEqual(Array(8).fill('INVALID_CODE'));
    // Five were counted: the right code is refused now.
    const right = await stack.api.post('/api/v1/user/verify-email', { email: body.email, code });
    expectFailure(right, 422, 'INVALID_CODE');
  });

  it('sends no resend within the interval (same answer); a resent code replaces the old one', async () => {
    const body = signUpBody();
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    const first = await mailbox.nextCode(body.email);

    const early = await stack.api.post('/api/v1/user/resend-code', { email: body.email });
    expect(early.status, early.text).toBe(200);
    await wait(300);
    expect(mailbox.received.filter((m) => m.to.includes(body.email))).toHaveLength(1);

    await wait(1100);
    const resent = await stack.api.post('/api/v1/user/resend-code', { email: body.email });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.email).toBe(body.email);
    expect(Date.parse(resent.body.data.emailCodeExpiresAt)).toBeGreaterThan(Date.now());
    const second = await mailbox.nextCode(body.email);

    if (first !== second) {
      expectFailure(
        await stack.api.post('/api/v1/user/verify-email', { email: body.email, code: first }),
        422,
        'INVALID_CODE',
      );
    }
    const ok = await stack.api.post('/api/v1/user/verify-email', { email: body.email, code: second });
    expect(ok.status, ok.text).toBe(200);
  });

  it('answers an e-mail without an account as one with an account', async () => {
    const email = `nobody-${randomUUID()}@example.com`;
    expectFailure(
      await stack.api.post('/api/v1/user/verify-email', { email, code: '123456' }),
      422,
      'INVALID_CODE',
      'the code is incorrect or has expired; request a new code',
    );
    const resend = await stack.api.post('/api/v1/user/resend-code', { email });
    expect(resend.status).toBe(200);
    expect(Object.keys(resend.body.data).sort()).toEqual(['email', 'emailCodeExpiresAt']);
  });

  it('names a malformed code in the 400 envelope', async () => {
    const res = await stack.api.post('/api/v1/user/verify-email', {
      email: 'someone@example.com',
      code: '12ab',
    });
    expectFailure(res, 400, 'Bad request', 'code must be 6 digits');
  });

  it('keeps the e-mail through a mail-server outage and a restart of identity', async () => {
    await mailbox.close();
    const body = signUpBody();
    expect((await stack.api.post('/api/v1/user', body)).status).toBe(200);
    await wait(400);
    expect(mailbox.received.some((m) => m.to.includes(body.email))).toBe(false);
    await stack.stopService('identity');
    await mailbox.open();
    await stack.startService('identity');
    const code = await mailbox.nextCode(body.email);
    const ok = await stack.api.post('/api/v1/user/verify-email', { email: body.email, code });
    expect(ok.status, ok.text).toBe(200);
  });
});
