import { z } from 'zod';
import { email, guid, isoTimestamp, password, passwordConfirmation } from './common.ts';
import { type Operation, operationsOf } from './operation.ts';
import { text } from './text.ts';

const { http } = operationsOf('identity');

/** A calendar date `YYYY-MM-DD` that exists and is not in the future. */
const pastDate = z.iso.date().refine((d) => d <= new Date().toISOString().slice(0, 10), {
  error: 'must not be in the future',
});

/** Tags are handles: compared case-insensitively, stored as typed. */
const tag = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{3,30}$/, { error: 'must be 3 to 30 letters, digits or underscores' });

/**
 * The Account user of the specification (docs/specification.md): every field it lists, spelled as
 * it spells them.
 */
export const accountUserSchema = z
  .object({
    id: guid,
    fullname: z.string(),
    tag: z.string(),
    email: z.string(),
    avatar: z.string().nullable(),
    emailVerified: z.boolean(),
    /** Never revealed: the code only travels by e-mail. */
    emailVerificationCode: z.null(),
    emailCodeExpiresAt: isoTimestamp.nullable(),
    emailVerifiedAt: isoTimestamp.nullable(),
    phone: z.string(),
    referralCode: z.string().nullable(),
    referred: z.boolean().nullable(),
    interest: z.array(z.string()).nullable(),
    dateOfBirth: z.string(),
    type: z.literal('user'),
    status: z.literal('active'),
    token: z.string().nullable(),
    otpExpiresAt: isoTimestamp.nullable(),
    transactionPinCreated: z.boolean(),
    kyc: z.record(z.string(), z.unknown()),
    earnings: z.array(z.unknown()),
    fcmToken: z.string().nullable(),
    dateJoined: isoTimestamp,
    bankAccountCreated: z.boolean(),
    faceIdKey: z.string().nullable(),
    lastRewardDate: isoTimestamp.nullable(),
    accountDeleted: z.boolean(),
    countryCode: z.string(),
    isVerifiedUser: z.boolean(),
    gender: z.string().nullable(),
    isAdult: z.boolean(),
    isFirstLogin: z.boolean(),
    tourCompleted: z.boolean(),
    isEnterpisePartnerUser: z.boolean().nullable(),
    accountLinked: z.boolean().nullable(),
    numberOfAccountLinked: z.number().int().nullable(),
    accountLinkingData: z.record(z.string(), z.unknown()).nullable(),
    fromLAAS: z.boolean(),
    laasUserAccountFullyActivated: z.boolean(),
  })
  .meta({
    id: 'AccountUser',
    description: "A person signed up on the service directly (the specification's Account user).",
  });

export type AccountUser = z.infer<typeof accountUserSchema>;

/**
 * The Account user's fields for features this project does not have (referrals, KYC, linking, PINs,
 * devices): always their empty state, null, false, `{}` or `[]`.
 */
export const accountUserEmptyState = {
  avatar: null,
  emailVerificationCode: null,
  referralCode: null,
  referred: null,
  interest: null,
  type: 'user',
  status: 'active',
  token: null,
  otpExpiresAt: null,
  transactionPinCreated: false,
  kyc: {},
  earnings: [],
  fcmToken: null,
  bankAccountCreated: false,
  faceIdKey: null,
  lastRewardDate: null,
  accountDeleted: false,
  isVerifiedUser: false,
  gender: null,
  isFirstLogin: false,
  tourCompleted: false,
  isEnterpisePartnerUser: null,
  accountLinked: null,
  numberOfAccountLinked: null,
  accountLinkingData: null,
  fromLAAS: false,
  laasUserAccountFullyActivated: false,
} satisfies Partial<AccountUser>;

export const createAccountUser = http('createAccountUser', 'POST /api/v1/user', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'user created successfully; check your email for a one-time code to verify it',
  summary: 'Create an account user; a one-time code is e-mailed to verify the address',
  schemas: {
    body: z
      .strictObject({
        email,
        fullname: text({ max: 200 }),
        password,
        confirmPassword: passwordConfirmation,
        phone: z.string().regex(/^[0-9]{4,15}$/, { error: 'must be 4 to 15 digits' }),
        tag,
        isAdult: z.boolean(),
        dateOfBirth: pastDate,
        countryCode: z
          .string()
          .regex(/^\+[0-9]{1,4}$/, { error: 'must be a plus sign followed by 1 to 4 digits' }),
      })
      .refine((b) => b.password === b.confirmPassword, {
        path: ['confirmPassword'],
        error: 'must match password',
      }),
    response: accountUserSchema,
  },
});

const oneTimeCode = z.string().regex(/^[0-9]{6}$/, { error: 'must be 6 digits' });

export const verifyEmail = http('verifyEmail', 'POST /api/v1/user/verify-email', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'email verified successfully',
  summary: "Verify an account user's e-mail with the one-time code sent to it",
  schemas: {
    body: z.strictObject({ email, code: oneTimeCode }),
    response: accountUserSchema,
  },
});

export const resendCode = http('resendCode', 'POST /api/v1/user/resend-code', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'a new one-time code has been sent; check your email',
  summary: 'Send a new one-time code (the previous one stops working); at most one per interval',
  schemas: {
    body: z.strictObject({ email }),
    response: z.object({ email: z.string(), emailCodeExpiresAt: isoTimestamp }),
  },
});

/** Account users: identity's operations for people signing up directly on the service. */
export const accountOperations: readonly Operation[] = [createAccountUser, verifyEmail, resendCode];
