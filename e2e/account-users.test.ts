import { randomUUID } from 'node:crypto';
import type { ApiResponse, Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, startMailbox } from './support/mailbox.ts';
import { stackWith } from './support/stack.ts';

/**
 * The specification's Account user, field by field: how each must look right after sign-up.
 * `null` means the field is nullable and null on creation.
 */
const SPEC_FIELDS = {
  id: 'uuid',
  fullname: 'string',
  tag: 'string',
  email: 'string',
  avatar: null,
  emailVerified: 'false',
  emailVerificationCode: null,
  emailCodeExpiresAt: 'timestamp',
  emailVerifiedAt: null,
  phone: 'string',
  referralCode: null,
  referred: null,
  interest: null,
  dateOfBirth: 'string',
  type: 'string',
  status: 'string',
  token: null,
  otpExpiresAt: null,
  transactionPinCreated: 'false',
  kyc: 'object',
  earnings: 'array',
  fcmToken: null,
  dateJoined: 'timestamp',
  bankAccountCreated: 'false',
  faceIdKey: null,
  lastRewardDate: null,
  accountDeleted: 'false',
  countryCode: 'string',
  isVerifiedUser: 'false',
  gender: null,
  isAdult: 'boolean',
  isFirstLogin: 'false',
  tourCompleted: 'false',
  isEnterpisePartnerUser: null,
  accountLinked: null,
  numberOfAccountLinked: null,
  accountLinkingData: null,
  fromLAAS: 'false',
  laasUserAccountFullyActivated: 'false',
} as const;

function expectFieldType(
  field: string,
  value: unknown,
  kind: (typeof SPEC_FIELDS)[keyof typeof SPEC_FIELDS],
) {
  const where = `${field} = ${JSON.stringify(value)}`;
  switch (kind) {
    case null:
      expect(value, where).toBeNull();
      break;
    case 'uuid':
      expect(value, where).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      break;
    case 'string':
      expect(typeof value, where).toBe('string');
      break;
    case 'false':
      expect(value, where).toBe(false);
      break;
    case 'boolean':
      expect(typeof value, where).toBe('boolean');
      break;
    case 'object':
      expect(value, where).toEqual({});
      break;
    case 'array':
      expect(value, where).toEqual([]);
      break;
    case 'timestamp':
      expect(typeof value, where).toBe('string');
      expect(new Date(value as string).toISOString(), where).toBe(value);
      break;
  }
}

let mailbox: Mailbox;
/** Codes valid a minute, resend allowed every second, a generous per-address limit. */
let main: Stack;
/** Codes valid two seconds, three sign-ups or verifications per address and minute. */
let tight: Stack | undefined;
let mainStopped = false;

const mail = () => ({
  SMTP_URL: mailbox.url,
  MAIL_POLL_MS: '50',
  MAIL_RETRY_BASE_MS: '100',
  MAIL_RETRY_MAX_MS: '200',
});

beforeAll(async () => {
  mailbox = await startMailbox();
  main = await stackWith(['identity'], {
    ...mail(),
    AUTH_RATE_LIMIT_MAX: '1000',
    EMAIL_CODE_TTL_SECONDS: '60',
    EMAIL_CODE_RESEND_SECONDS: '1',
  });
});

afterAll(async () => {
  if (!mainStopped) await main?.stop();
  await tight?.stop();
  await mailbox?.close();
});

function signUpBody(overrides: Record<string, unknown> = {}) {
  const id = randomUUID().replaceAll('-', '');
  return {
    email: `user-${id}@example.com`,
    fullname: 'Ada Lovelace',
    password: 'correct horse battery staple',
    confirmPassword: 'correct horse battery staple',
    phone: '8012345678',
    tag: `ada_${id.slice(0, 20)}`,
    isAdult: true,
    dateOfBirth: '1990-12-10',
    countryCode: '+234',
    ...overrides,
  };
}

function expectFailure(res: ApiResponse, status: number, appErrorCode: string, error?: string | RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.status).toBe('failed');
  expect(typeof res.body.message).toBe('string');
  expect(res.body.data.appErrorCode).toBe(appErrorCode);
  if (typeof error === 'string') expect(res.body.data.error).toBe(error);
  else if (error) expect(res.body.data.error).toMatch(error);
}

const TAG_TAKEN = {
  status: 'failed',
  message: 'conflict',
  data: { errorType: 'conflict', appErrorCode: '', error: 'Tag Already Taken' },
};

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sign-up (POST /api/v1/user)', () => {
  it('returns every Account user field of the specification, with its type, and no secret', async () => {
    const body = signUpBody();
    const res = await main.api.post('/api/v1/user', body);
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
    expect((await main.api.post('/api/v1/user', first)).status).toBe(200);
    for (const tag of [first.tag, first.tag.toUpperCase()]) {
      const res = await main.api.post('/api/v1/user', signUpBody({ tag }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual(TAG_TAKEN);
    }
  });

  it('lets exactly one of 20 concurrent sign-ups with one tag win', async () => {
    const tag = `race_${randomUUID().slice(0, 8)}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => main.api.post('/api/v1/user', signUpBody({ tag }))),
    );
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) expect(r.body).toEqual(TAG_TAKEN);
  });

  it('refuses an e-mail already used, whatever its case (409 DUPLICATE)', async () => {
    const first = signUpBody();
    expect((await main.api.post('/api/v1/user', first)).status).toBe(200);
    const res = await main.api.post('/api/v1/user', signUpBody({ email: first.email.toUpperCase() }));
    expectFailure(res, 409, 'DUPLICATE');
    expect(res.body.data.errorType).toBe('conflict');
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
      const res = await main.api.post('/api/v1/user', signUpBody(overrides));
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
    expect((await main.api.post('/api/v1/user', body)).status).toBe(200);
    const code = await mailbox.nextCode(body.email);
    expect(code).toMatch(/^\d{6}$/);

    const res = await main.api.post('/api/v1/user/verify-email', { email: body.email, code });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('success');
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
    expect(res.body.data.emailVerified).toBe(true);
    expect(Math.abs(Date.parse(res.body.data.emailVerifiedAt) - Date.now())).toBeLessThan(60_000);
    expect(res.body.data.emailCodeExpiresAt).toBeNull();

    expectFailure(
      await main.api.post('/api/v1/user/verify-email', { email: body.email, code }),
      409,
      'ALREADY_VERIFIED',
    );
    expectFailure(
      await main.api.post('/api/v1/user/resend-code', { email: body.email }),
      409,
      'ALREADY_VERIFIED',
    );
  });

  it('refuses the right code after too many wrong ones, until a new code is sent', async () => {
    const body = signUpBody();
    expect((await main.api.post('/api/v1/user', body)).status).toBe(200);
    const code = await mailbox.nextCode(body.email);
    const wrong = code === '000000' ? '000001' : '000000';
    const left = [4, 3, 2, 1];
    for (const n of left) {
      expectFailure(
        await main.api.post('/api/v1/user/verify-email', { email: body.email, code: wrong }),
        422,
        'INVALID_CODE',
        `the code is incorrect; ${n} attempt${n === 1 ? '' : 's'} left`,
      );
    }
    expectFailure(
      await main.api.post('/api/v1/user/verify-email', { email: body.email, code: wrong }),
      422,
      'INVALID_CODE',
      'the code is incorrect; no attempts left, request a new code',
    );
    expectFailure(
      await main.api.post('/api/v1/user/verify-email', { email: body.email, code }),
      422,
      'CODE_ATTEMPTS_EXCEEDED',
    );

    await wait(1100);
    const resent = await main.api.post('/api/v1/user/resend-code', { email: body.email });
    expect(resent.status, resent.text).toBe(200);
    const fresh = await mailbox.nextCode(body.email);
    const ok = await main.api.post('/api/v1/user/verify-email', { email: body.email, code: fresh });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.emailVerified).toBe(true);
  });

  it('counts concurrent wrong guesses one by one', async () => {
    const body = signUpBody();
    expect((await main.api.post('/api/v1/user', body)).status).toBe(200);
    const code = await mailbox.nextCode(body.email);
    const wrong = code === '999999' ? '999998' : '999999';
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () =>
        main.api.post('/api/v1/user/verify-email', { email: body.email, code: wrong }),
      ),
    );
    const codes = guesses.map((g) => g.body.data.appErrorCode);
    expect(codes.filter((c) => c === 'INVALID_CODE')).toHaveLength(5);
    expect(codes.filter((c) => c === 'CODE_ATTEMPTS_EXCEEDED')).toHaveLength(3);
  });

  it('rate-limits resend per account (429 with Retry-After); a resent code replaces the old one', async () => {
    const body = signUpBody();
    expect((await main.api.post('/api/v1/user', body)).status).toBe(200);
    const first = await mailbox.nextCode(body.email);

    const early = await main.api.post('/api/v1/user/resend-code', { email: body.email });
    expectFailure(early, 429, 'RATE_LIMITED');
    expect(early.body.data.errorType).toBe('rate_limited');
    expect(Number(early.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    await wait(1100);
    const resent = await main.api.post('/api/v1/user/resend-code', { email: body.email });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.email).toBe(body.email);
    expect(Date.parse(resent.body.data.emailCodeExpiresAt)).toBeGreaterThan(Date.now());
    const second = await mailbox.nextCode(body.email);

    if (first !== second) {
      expectFailure(
        await main.api.post('/api/v1/user/verify-email', { email: body.email, code: first }),
        422,
        'INVALID_CODE',
      );
    }
    const ok = await main.api.post('/api/v1/user/verify-email', { email: body.email, code: second });
    expect(ok.status, ok.text).toBe(200);
  });

  it('answers 404 for an e-mail without an account', async () => {
    const email = `nobody-${randomUUID()}@example.com`;
    expectFailure(
      await main.api.post('/api/v1/user/verify-email', { email, code: '123456' }),
      404,
      'NOT_FOUND',
    );
    expectFailure(await main.api.post('/api/v1/user/resend-code', { email }), 404, 'NOT_FOUND');
  });

  it('names a malformed code in the 400 envelope', async () => {
    const res = await main.api.post('/api/v1/user/verify-email', {
      email: 'someone@example.com',
      code: '12ab',
    });
    expectFailure(res, 400, 'Bad request', 'code must be 6 digits');
  });

  it('keeps the e-mail through a mail-server outage and a restart of identity', async () => {
    await mailbox.close();
    const body = signUpBody();
    expect((await main.api.post('/api/v1/user', body)).status).toBe(200);
    await wait(400);
    expect(mailbox.received.some((m) => m.to.includes(body.email))).toBe(false);
    await main.stopService('identity');
    await mailbox.open();
    await main.startService('identity');
    const code = await mailbox.nextCode(body.email);
    const ok = await main.api.post('/api/v1/user/verify-email', { email: body.email, code });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('expiry and per-address limits', () => {
  // One stack at a time: both live in this process, under the same NATS namespace.
  beforeAll(async () => {
    await main.stop();
    mainStopped = true;
    tight = await stackWith(['identity'], {
      ...mail(),
      AUTH_RATE_LIMIT_MAX: '3',
      EMAIL_CODE_TTL_SECONDS: '2',
    });
  });

  it('refuses a code after it expired', async () => {
    const body = signUpBody();
    const res = await tight!.api.post('/api/v1/user', body);
    expect(res.status, res.text).toBe(200);
    const code = await mailbox.nextCode(body.email);
    await wait(Math.max(0, Date.parse(res.body.data.emailCodeExpiresAt) - Date.now()) + 50);
    expectFailure(
      await tight!.api.post('/api/v1/user/verify-email', { email: body.email, code }),
      422,
      'CODE_EXPIRED',
    );
  });

  it('limits sign-up and verification per client address: 429 envelope with Retry-After', async () => {
    for (const [path, makeBody] of [
      ['/api/v1/user', () => signUpBody()],
      ['/api/v1/user/verify-email', () => ({ email: `nobody-${randomUUID()}@example.com`, code: '123456' })],
    ] as const) {
      let limited: ApiResponse | undefined;
      for (let i = 0; i < 4 && !limited; i++) {
        const res = await tight!.api.post(path, makeBody());
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
