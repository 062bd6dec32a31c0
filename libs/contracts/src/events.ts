import { z } from 'zod';
import { guid, isoTimestamp } from './common.ts';
import { storedUserSchema } from './onboarding.ts';
import type { ServiceName } from './operation.ts';

/**
 * JetStream subjects of the facts services publish (stream EVENTS, `events.<service>.<fact>`).
 * Each event's JSON payload carries `eventId` (also its `Nats-Msg-Id`) and `partnerId`.
 */
export const EVENT_SUBJECTS = {
  /** One per onboard-users request, when it has been processed: the USER_ONBOARDING webhook's source. */
  onboardingProcessed: 'events.onboarding.requestProcessed',
  /** Users stored by a request, one event per stored chunk, for other services' projections. */
  usersOnboarded: 'events.onboarding.usersOnboarded',
  /** Every completed transfer (ledger entry). */
  transferCompleted: 'events.wallet.transferCompleted',
  /** Every reversal (the correcting ledger entry); a reversal is not also a transferCompleted. */
  transferReversed: 'events.wallet.transferReversed',
  /** Every reward paid by rule. */
  ruleRewarded: 'events.rules.rewarded',
} as const;

/**
 * Every durable consumer of events: the service that runs it, its durable name and the subject it
 * reads. A service may create, read and acknowledge only its own durables (the NATS authorization
 * is generated from this list), so a consumer is added here before it is started.
 */
export const EVENT_CONSUMERS = {
  leaderboardRewards: {
    service: 'leaderboard',
    durable: 'leaderboard-rewards',
    subject: EVENT_SUBJECTS.ruleRewarded,
  },
  leaderboardTransfers: {
    service: 'leaderboard',
    durable: 'leaderboard-transfers',
    subject: EVENT_SUBJECTS.transferCompleted,
  },
  leaderboardReversals: {
    service: 'leaderboard',
    durable: 'leaderboard-reversals',
    subject: EVENT_SUBJECTS.transferReversed,
  },
  leaderboardUsers: {
    service: 'leaderboard',
    durable: 'leaderboard-users',
    subject: EVENT_SUBJECTS.usersOnboarded,
  },
  webhooksOnboarding: {
    service: 'webhooks',
    durable: 'webhooks-onboarding',
    subject: EVENT_SUBJECTS.onboardingProcessed,
  },
} as const satisfies Record<string, { service: ServiceName; durable: string; subject: string }>;

/** Coins travel in events as exact decimal text (at most 2 places), never as floats. */
const decimalText = z.string().regex(/^\d+(\.\d{1,2})?$/);

export const transferCompletedEvent = z.object({
  eventId: guid,
  partnerId: guid,
  ledgerEntryId: guid,
  userId: guid,
  transactionType: z.enum(['partner_user_transfer', 'user_partner_transfer']),
  /** From the user's side: CR when coins reach the user, DE when they leave. */
  debitOrCredit: z.enum(['CR', 'DE']),
  coins: decimalText,
  createdAt: isoTimestamp,
});
export type TransferCompletedEvent = z.infer<typeof transferCompletedEvent>;

/**
 * A reversal: the correcting entry (`ledgerEntryId`, parties swapped) of the original
 * (`reversedEntryId`). Consumers undo what the original did: a reversed credit (`debitOrCredit` DE
 * here) leaves the coin leaderboard of the original's month (`reversedCreatedAt`) and, when it paid
 * a rule reward, the points leaderboard.
 */
export const transferReversedEvent = z.object({
  eventId: guid,
  partnerId: guid,
  ledgerEntryId: guid,
  userId: guid,
  /** The correcting entry, from the user's side: DE when a credit is reversed, CR for a debit. */
  debitOrCredit: z.enum(['CR', 'DE']),
  coins: decimalText,
  createdAt: isoTimestamp,
  reversedEntryId: guid,
  reversedTransactionType: z.enum(['partner_user_transfer', 'user_partner_transfer']),
  reversedRuleReward: z.boolean(),
  reversedCreatedAt: isoTimestamp,
});
export type TransferReversedEvent = z.infer<typeof transferReversedEvent>;

export const ruleRewardedEvent = z.object({
  eventId: guid,
  partnerId: guid,
  ruleId: guid,
  ruleName: z.string(),
  userId: guid,
  coins: decimalText,
  /** Points earned on the points leaderboard: equal to the reward's coins. */
  points: z.number(),
  ledgerEntryId: guid,
  rewardedAt: isoTimestamp,
});
export type RuleRewardedEvent = z.infer<typeof ruleRewardedEvent>;

/**
 * Every event's JSON payload stays under this many bytes, far below NATS's 1 MB message limit, so
 * no event can be refused by the server and hold back the outbox rows behind it.
 */
export const MAX_EVENT_BYTES = 256 * 1024;

/**
 * Users stored by one onboarding request, split by size: at most 500 users and MAX_EVENT_BYTES per
 * event (a user's userData is at most 16 KB, so every user fits).
 */
export const USERS_PER_ONBOARDED_EVENT = 500;

export const usersOnboardedEvent = z.object({
  eventId: guid,
  partnerId: guid,
  requestId: guid,
  users: z.array(storedUserSchema).max(USERS_PER_ONBOARDED_EVENT),
});
export type UsersOnboardedEvent = z.infer<typeof usersOnboardedEvent>;

/**
 * The most failures an `onboardingProcessed` event carries itself. A request with more (up to
 * 100,000) keeps them in onboarding's database: `failedCount` tells a consumer to page the rest
 * with `onboarding.listFailures`, so the event stays far below NATS's 1 MB payload.
 */
export const MAX_FAILURES_IN_EVENT = 1_000;

export const onboardingProcessedEvent = z.object({
  eventId: guid,
  partnerId: guid,
  requestId: guid,
  event: z.literal('USER_ONBOARDING'),
  status: z.literal('success'),
  /** The first failures, in request order (all of them when `failedCount` ≤ MAX_FAILURES_IN_EVENT). */
  failed: z.array(z.object({ user: z.string(), reason: z.string() })).max(MAX_FAILURES_IN_EVENT),
  failedCount: z.number().int().min(0),
  usersCount: z.number().int().min(1),
});
export type OnboardingProcessedEvent = z.infer<typeof onboardingProcessedEvent>;
