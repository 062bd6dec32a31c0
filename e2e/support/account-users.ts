// The account users' suites: identity with a local SMTP mailbox; codes and limits as each suite sets them.
import { randomUUID } from 'node:crypto';
import type { ApiResponse, Stack } from '@coin/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Mailbox, startMailbox } from './mailbox.ts';
import { stackWith } from './stack.ts';

export let mailbox: Mailbox;
export let stack: Stack;

/**
 * The Account user of docs/specification.md ("Account user"), field by field: how each must look right after
 * sign-up. `null` means the field is nullable and null on creation.
 */
export const SPEC_FIELDS = {
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

export function expectFieldType(
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

const mail = () => ({
  SMTP_URL: mailbox.url,
  MAIL_POLL_MS: '50',
  MAIL_RETRY_BASE_MS: '100',
  MAIL_RETRY_MAX_MS: '200',
});

export function signUpBody(overrides: Record<string, unknown> = {}) {
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

export function expectFailure(
  res: ApiResponse,
  status: number,
  appErrorCode: string,
  error?: string | RegExp,
) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.status).toBe('failed');
  expect(typeof res.body.message).toBe('string');
  expect(res.body.data.appErrorCode).toBe(appErrorCode);
  if (typeof error === 'string') expect(res.body.data.error).toBe(error);
  else if (error) expect(res.body.data.error).toMatch(error);
}

export const TAG_TAKEN = {
  status: 'failed',
  message: 'conflict',
  data: { errorType: 'conflict', appErrorCode: '', error: 'Tag Already Taken' },
};

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the mailbox and identity, with `env` on top of the mail settings, for the calling test file. */
export function useAccountStack(env: Record<string, string>): void {
  beforeAll(async () => {
    mailbox = await startMailbox();
    stack = await stackWith(['identity'], { ...mail(), ...env });
  });
  afterAll(async () => {
    await stack?.stop();
    await mailbox?.close();
  });
}
