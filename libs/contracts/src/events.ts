import { z } from 'zod';
import { actorSchema } from './actor.ts';
import { guid, isoTimestamp } from './common.ts';
import { decimalText, eventBase } from './event-base.ts';
import { entrySide, transferType } from './ledger-entry.ts';
import { onboardingFailureSchema, storedUserSchema } from './onboarding.ts';
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
  /** A rule's last place was taken: the RULE_CAP_REACHED webhook's source. */
  ruleCapReached: 'events.rules.capReached',
  /** A user moved to another tier: the USER_TIER_CHANGED webhook's source. */
  userTierChanged: 'events.onboarding.userTierChanged',
  /** A partner's outstanding coins crossed TREASURY_LOW_SHARE of its limit upward: TREASURY_LOW's source. */
  treasuryLow: 'events.wallet.treasuryLow',
  /**
   * A pending transfer was created, posted, or voided (by the partner or its expiry). Written by the
   * wallet's database functions (migration 0013), which name these subjects themselves.
   */
  pendingCreated: 'events.wallet.pendingCreated',
  pendingPosted: 'events.wallet.pendingPosted',
  pendingVoided: 'events.wallet.pendingVoided',
  /**
   * A change for the partner's audit log (identity keeps it), written by the service that made the
   * change in the change's own transaction: one subject per such service.
   */
  walletAudit: 'events.wallet.auditRecorded',
  rulesAudit: 'events.rules.auditRecorded',
  onboardingAudit: 'events.onboarding.auditRecorded',
  /**
   * A user's credit lots expire within WALLET_EXPIRY_WARNING_DAYS (once per lot), and a lot expired
   * (its `expiry` entry). Written by the wallet's database functions (migration 0015).
   */
  coinsExpiring: 'events.wallet.coinsExpiring',
  coinsExpired: 'events.wallet.coinsExpired',
} as const;

/**
 * Every durable consumer of events: the service that runs it, its durable name and the subject it
 * reads. The operator's set-up creates each with its filter (`startAt: 'new'`: from its creation on,
 * for a kind added to a subject whose history partners must not receive); a service may only pull
 * from and acknowledge its own (the NATS authorization is generated from this list).
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
  webhooksTransfers: {
    service: 'webhooks',
    durable: 'webhooks-transfers',
    subject: EVENT_SUBJECTS.transferCompleted,
    startAt: 'new',
  },
  webhooksReversals: {
    service: 'webhooks',
    durable: 'webhooks-reversals',
    subject: EVENT_SUBJECTS.transferReversed,
    startAt: 'new',
  },
  webhooksRuleCaps: {
    service: 'webhooks',
    durable: 'webhooks-rule-caps',
    subject: EVENT_SUBJECTS.ruleCapReached,
  },
  /** The onboarding service counts users' credits for tier rules. */
  onboardingEarnings: {
    service: 'onboarding',
    durable: 'onboarding-earnings',
    subject: EVENT_SUBJECTS.transferCompleted,
    startAt: 'new',
  },
  webhooksTierChanges: {
    service: 'webhooks',
    durable: 'webhooks-tier-changes',
    subject: EVENT_SUBJECTS.userTierChanged,
  },
  webhooksTreasury: {
    service: 'webhooks',
    durable: 'webhooks-treasury',
    subject: EVENT_SUBJECTS.treasuryLow,
  },
  webhooksPendingCreated: {
    service: 'webhooks',
    durable: 'webhooks-pending-created',
    subject: EVENT_SUBJECTS.pendingCreated,
  },
  webhooksPendingPosted: {
    service: 'webhooks',
    durable: 'webhooks-pending-posted',
    subject: EVENT_SUBJECTS.pendingPosted,
  },
  webhooksPendingVoided: {
    service: 'webhooks',
    durable: 'webhooks-pending-voided',
    subject: EVENT_SUBJECTS.pendingVoided,
  },
  identityWalletAudit: {
    service: 'identity',
    durable: 'identity-wallet-audit',
    subject: EVENT_SUBJECTS.walletAudit,
  },
  identityRulesAudit: {
    service: 'identity',
    durable: 'identity-rules-audit',
    subject: EVENT_SUBJECTS.rulesAudit,
  },
  identityOnboardingAudit: {
    service: 'identity',
    durable: 'identity-onboarding-audit',
    subject: EVENT_SUBJECTS.onboardingAudit,
  },
  webhooksCoinsExpiring: {
    service: 'webhooks',
    durable: 'webhooks-coins-expiring',
    subject: EVENT_SUBJECTS.coinsExpiring,
  },
  webhooksCoinsExpired: {
    service: 'webhooks',
    durable: 'webhooks-coins-expired',
    subject: EVENT_SUBJECTS.coinsExpired,
  },
} as const satisfies Record<
  string,
  { service: ServiceName; durable: string; subject: string; startAt?: 'all' | 'new' }
>;

/** An event about one ledger entry of a user: its side, coins and time, as the user's wallet sees it. */
const ledgerEntryEvent = eventBase.extend({
  ledgerEntryId: guid,
  userId: guid,
  /** From the user's side: CR when coins reach the user, DE when they leave. */
  debitOrCredit: entrySide,
  coins: decimalText,
  createdAt: isoTimestamp,
});

export const transferCompletedEvent = ledgerEntryEvent.extend({ transactionType: transferType });
export type TransferCompletedEvent = z.infer<typeof transferCompletedEvent>;

/**
 * A reversal: the correcting entry (`ledgerEntryId`, parties swapped; `debitOrCredit` DE when a
 * credit is reversed, CR for a debit) of the original (`reversedEntryId`). Consumers undo what the
 * original did: a reversed credit leaves the coin leaderboard of the original's month
 * (`reversedCreatedAt`) and, when it paid a rule reward, the points leaderboard.
 */
export const transferReversedEvent = ledgerEntryEvent.extend({
  reversedEntryId: guid,
  reversedTransactionType: transferType,
  reversedRuleReward: z.boolean(),
  reversedCreatedAt: isoTimestamp,
});

export const ruleRewardedEvent = eventBase.extend({
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

export const ruleCapReachedEvent = eventBase.extend({
  ruleId: guid,
  ruleName: z.string(),
  maxParticipants: z.number().int(),
  reachedAt: isoTimestamp,
});
export type RuleCapReachedEvent = z.infer<typeof ruleCapReachedEvent>;

export const userTierChangedEvent = eventBase.extend({
  userId: guid,
  tierId: guid,
  tierName: z.string(),
  previousTierId: guid.nullable(),
  changedAt: isoTimestamp,
  /** Who moved the user: a tier rule (earnings, or a period's review) or the partner; absent before tier rules. */
  movedBy: z.enum(['rule', 'partner']).optional(),
});
export type UserTierChangedEvent = z.infer<typeof userTierChangedEvent>;

/** Written by the wallet's database (a trigger on the partner's shards), in the transfer's transaction. */
export const treasuryLowEvent = eventBase.extend({
  outstanding: decimalText,
  issuanceLimit: decimalText,
  crossedAt: isoTimestamp,
});

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

export const usersOnboardedEvent = eventBase.extend({
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

export const onboardingProcessedEvent = eventBase.extend({
  requestId: guid,
  event: z.literal('USER_ONBOARDING'),
  status: z.literal('success'),
  /** The first failures, in request order (all of them when `failedCount` ≤ MAX_FAILURES_IN_EVENT). */
  failed: z.array(onboardingFailureSchema).max(MAX_FAILURES_IN_EVENT),
  failedCount: z.number().int().min(0),
  usersCount: z.number().int().min(1),
});
export type OnboardingProcessedEvent = z.infer<typeof onboardingProcessedEvent>;

/**
 * A change made in another service, for the partner's audit log: who (the request's actor), from
 * where, which operation and what changed. Identity stores it under its `eventId`, once.
 */
export const auditRecordedEvent = eventBase.extend({
  actor: actorSchema.nullable(),
  clientIp: z.string().max(100).nullable(),
  action: z.string().max(100),
  summary: z.string().max(1000),
  details: z.record(z.string(), z.unknown()),
  at: isoTimestamp,
});
