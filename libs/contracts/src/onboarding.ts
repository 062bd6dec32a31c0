import { z } from 'zod';
import { emptyObject, guid, isoTimestamp, pageQuery, paginationBlock } from './common.ts';
import { getOnboardingRequest, listOnboardingRequests } from './onboarding-requests.ts';
import { defineOperation, type Operation } from './operation.ts';
import { text } from './text.ts';
import { userData } from './user-data.ts';

/** A partner's user as stored by onboarding (the specification's "stored user"). */
export const storedUserSchema = z.object({
  id: guid,
  userId: guid,
  userData: z.record(z.string(), z.unknown()).nullable(),
  tierId: guid.nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export type StoredUser = z.infer<typeof storedUserSchema>;

/**
 * Internal: the user `userId` of the request's partner, or a 404 AppError when that partner has
 * no such user. Wallet and rules ask this before coins can reach a user.
 */
export const getUser = defineOperation({
  service: 'onboarding',
  name: 'getUser',
  partner: true,
  callers: ['wallet', 'rules', 'leaderboard'],
  schemas: {
    body: z.strictObject({ userId: guid }),
    response: storedUserSchema,
  },
});

/** The most users one onboard-users call may carry. */
export const MAX_USERS_PER_REQUEST = 100_000;

export const onboardUserSchema = z.strictObject({ userId: guid, userData });

export type OnboardUser = z.infer<typeof onboardUserSchema>;

/** Validated whole and stored at once; the users are inserted in the background. */
export const onboardUsers = defineOperation({
  service: 'onboarding',
  name: 'onboardUsers',
  http: {
    method: 'POST',
    path: '/api/v1/laas/onboard-users',
    auth: 'partner',
    noData: true,
    location: '/api/v1/laas/onboarding-requests/:requestId',
    message: 'users received for onboarding; the outcome is sent by the USER_ONBOARDING webhook',
    summary: 'Onboard users in bulk (asynchronous; the outcome arrives by webhook)',
  },
  schemas: {
    body: z.strictObject({ users: z.array(onboardUserSchema).min(1).max(MAX_USERS_PER_REQUEST) }),
    response: z.object({ requestId: guid }),
  },
});

export const getPartnerUser = defineOperation({
  service: 'onboarding',
  name: 'getPartnerUser',
  http: {
    method: 'GET',
    path: '/api/v1/laas/users/:userId',
    auth: 'partner',
    message: 'user returned',
    summary: 'One of your onboarded users',
  },
  schemas: { params: z.object({ userId: guid }), response: storedUserSchema },
});

export const tierSchema = z.object({
  id: guid,
  name: z.string(),
  rank: z.number().int(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export const createTier = defineOperation({
  service: 'onboarding',
  name: 'createTier',
  http: {
    method: 'POST',
    path: '/api/v1/laas/tiers',
    auth: 'partner',
    message: 'tier created',
    summary: 'Define a tier (name unique per partner, case-insensitively)',
  },
  schemas: {
    body: z.strictObject({
      name: text({ max: 100 }),
      rank: z.number().int().min(0).max(1_000_000),
    }),
    response: tierSchema,
  },
});

export const listTiers = defineOperation({
  service: 'onboarding',
  name: 'listTiers',
  http: {
    method: 'GET',
    path: '/api/v1/laas/tiers',
    auth: 'partner',
    message: 'tiers returned',
    summary: 'Your tiers, by rank',
  },
  schemas: {
    query: z.object(pageQuery),
    response: z.object({ data: z.array(tierSchema), ...paginationBlock }),
  },
});

/**
 * The specification labels all three fields optional; a move needs a user and a tier, so those two
 * are required. `partnerId`, when sent, must be the caller's own.
 */
export const upgradeTier = defineOperation({
  service: 'onboarding',
  name: 'upgradeTier',
  http: {
    method: 'POST',
    path: '/api/v1/laas/user/upgrade-tier',
    auth: 'partner',
    message: 'tier upgraded',
    summary: 'Move one of your users to one of your tiers',
  },
  schemas: {
    body: z.strictObject({ userId: guid, partnerId: guid.optional(), tierId: guid }),
    response: emptyObject,
  },
});

export const onboardingFailureSchema = z.object({ user: z.string(), reason: z.string() });

/** Most failures a page of `listFailures` returns (a page stays far below NATS's 1 MB payload). */
export const MAX_FAILURES_PAGE = 2_000;

/**
 * Internal: the failures of a processed request in order, a page at a time from `after` (a
 * position); the webhooks service reads them when the event carried only the first ones.
 */
export const listFailures = defineOperation({
  service: 'onboarding',
  name: 'listFailures',
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

export const listUsers = defineOperation({
  service: 'onboarding',
  name: 'listUsers',
  http: {
    method: 'GET',
    path: '/api/v1/laas/users',
    auth: 'partner',
    message: 'users returned',
    summary: 'Your onboarded users, newest first',
  },
  schemas: {
    query: z.object(pageQuery),
    response: z.object({ data: z.array(storedUserSchema), ...paginationBlock }),
  },
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
];

export {
  getOnboardingRequest,
  listOnboardingRequests,
  onboardingRequestSchema,
} from './onboarding-requests.ts';
