import { z } from 'zod';
import { emptyObject, guid, isoTimestamp, pagedList } from './common.ts';
import {
  getOnboardingRequest,
  listOnboardingRequests,
  onboardingFailureSchema,
} from './onboarding-requests.ts';
import { type Operation, operationsOf } from './operation.ts';
import { text } from './text.ts';
import { userData } from './user-data.ts';

const { http, internal } = operationsOf('onboarding');

/** A partner's user as stored by onboarding (the "stored user" of docs/specification.md). */
export const storedUserSchema = z
  .object({
    id: guid,
    userId: guid,
    userData: z.record(z.string(), z.unknown()).nullable(),
    tierId: guid.nullable(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: 'User', description: 'One of your users, as onboarded.' });

export type StoredUser = z.infer<typeof storedUserSchema>;

/**
 * Internal: the user `userId` of the request's partner, or a 404 AppError when that partner has
 * no such user. Wallet and rules ask this before coins can reach a user.
 */
export const getUser = internal('getUser', {
  partner: true,
  callers: ['wallet', 'rules', 'leaderboard'],
  schemas: {
    body: z.strictObject({ userId: guid }),
    response: storedUserSchema,
  },
});

/** The most users one onboard-users call may carry. */
const MAX_USERS_PER_REQUEST = 100_000;

/**
 * The one large body: a full call of users with a little userData each fits. It bounds what one call
 * costs the gateway's heap; users with larger userData are sent in several calls
 * (docs/decisions/2026-11-27-body-limits-per-operation.md).
 */
const ONBOARDING_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

export const onboardUserSchema = z.strictObject({ userId: guid, userData });

export type OnboardUser = z.infer<typeof onboardUserSchema>;

/** Validated whole and stored at once; the users are inserted in the background. */
export const onboardUsers = http('onboardUsers', 'POST /api/v1/laas/onboard-users', {
  permission: 'users',
  noData: true,
  bodyLimit: ONBOARDING_BODY_LIMIT_BYTES,
  location: '/api/v1/laas/onboarding-requests/:requestId',
  message: 'users received for onboarding; the outcome is sent by the USER_ONBOARDING webhook',
  summary: 'Onboard users in bulk (asynchronous; the outcome arrives by webhook)',
  schemas: {
    body: z.strictObject({ users: z.array(onboardUserSchema).min(1).max(MAX_USERS_PER_REQUEST) }),
    response: z.object({ requestId: guid }),
  },
});

export const getPartnerUser = http('getPartnerUser', 'GET /api/v1/laas/users/:userId', {
  permission: 'read',
  message: 'user returned',
  summary: 'One of your onboarded users',
  schemas: { params: z.object({ userId: guid }), response: storedUserSchema },
});

export const tierSchema = z
  .object({
    id: guid,
    name: z.string(),
    rank: z.number().int(),
    /** Present only when set: users whose earnings in the window reach it move up to this tier. */
    minCoins: z.number().optional(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: 'Tier', description: 'A tier you defined; users move between tiers.' });

/** The largest threshold a tier may state. */
const MAX_TIER_THRESHOLD = 1_000_000_000_000;

const tierThreshold = z
  .number()
  .min(0)
  .max(MAX_TIER_THRESHOLD)
  .refine((n) => Math.round(n * 100) === n * 100, { error: 'must have at most 2 decimal places' });

const tierPolicySchema = z
  .object({
    windowDays: z.number().int().min(1).max(3660),
    periodDays: z.number().int().min(1).max(3660),
    downgrade: z.enum(['one_level', 'reevaluate']),
  })
  .meta({
    id: 'TierPolicy',
    description:
      'How tiers with a threshold follow earnings: the rolling window, the period and the downgrade.',
  });

export const getTierPolicy = http('getTierPolicy', 'GET /api/v1/laas/tiers/policy', {
  permission: 'read',
  message: 'tier policy returned',
  summary: 'How your tiers with a threshold follow what users earn',
  schemas: { response: tierPolicySchema },
});

export const setTierPolicy = http('setTierPolicy', 'PUT /api/v1/laas/tiers/policy', {
  permission: 'rules',
  message: 'tier policy saved',
  summary: 'Set the rolling window, the review period and the downgrade policy of your tiers',
  schemas: { body: tierPolicySchema.strict(), response: tierPolicySchema },
});

export const createTier = http('createTier', 'POST /api/v1/laas/tiers', {
  permission: 'rules',
  message: 'tier created',
  summary: 'Define a tier (name unique per partner, case-insensitively)',
  schemas: {
    body: z.strictObject({
      name: text({ max: 100 }),
      rank: z.number().int().min(0).max(1_000_000),
      minCoins: tierThreshold.optional(),
    }),
    response: tierSchema,
  },
});

export const listTiers = http('listTiers', 'GET /api/v1/laas/tiers', {
  permission: 'read',
  message: 'tiers returned',
  summary: 'Your tiers, by rank',
  schemas: pagedList(tierSchema),
});

/**
 * docs/specification.md ("12. Upgrade user tier") labels all three fields optional; a move needs a user and a
 * tier, so those two are required. `partnerId`, when sent, must be the caller's own.
 */
export const upgradeTier = http('upgradeTier', 'POST /api/v1/laas/user/upgrade-tier', {
  permission: 'users',
  message: 'tier upgraded',
  summary: 'Move one of your users to one of your tiers',
  schemas: {
    body: z.strictObject({ userId: guid, partnerId: guid.optional(), tierId: guid }),
    response: emptyObject,
  },
});

/** Most failures a page of `listFailures` returns (a page stays far below NATS's 1 MB payload). */
export const MAX_FAILURES_PAGE = 2_000;

/**
 * Internal: the failures of a processed request in order, a page at a time from `after` (a
 * position); the webhooks service reads them when the event carried only the first ones.
 */
export const listFailures = internal('listFailures', {
  partner: true,
  callers: ['webhooks'],
  schemas: {
    body: z.strictObject({
      requestId: guid,
      after: z.number().int().min(-1).default(-1),
      limit: z.number().int().min(1).max(MAX_FAILURES_PAGE).default(MAX_FAILURES_PAGE),
    }),
    response: z.object({
      failed: z.array(onboardingFailureSchema),
      /** The position to pass as `after` for the next page, or null after the last. */
      next: z.number().int().nullable(),
    }),
  },
});

/**
 * `search` finds a user by what an operations team knows of them: the start of their `userId`, their
 * `userData.tag` (whole, any case), or part of their `userData` name (`fullname`, `fullName` or `name`).
 */
export const listUsers = http('listUsers', 'GET /api/v1/laas/users', {
  permission: 'read',
  message: 'users returned',
  summary: 'Your onboarded users, newest first; `search` finds them by id prefix, tag or name',
  schemas: pagedList(storedUserSchema, { search: text({ max: 100 }).optional() }),
});

/** The onboarding service's operations (HTTP routes and internal NATS subjects). */
export const onboardingOperations: readonly Operation[] = [
  getUser,
  onboardUsers,
  getOnboardingRequest,
  listOnboardingRequests,
  listUsers,
  getPartnerUser,
  createTier,
  listTiers,
  upgradeTier,
  listFailures,
  getTierPolicy,
  setTierPolicy,
];

export {
  getOnboardingRequest,
  listOnboardingRequests,
  onboardingFailureSchema,
} from './onboarding-requests.ts';
