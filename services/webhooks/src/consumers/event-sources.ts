import {
  coinsExpiredEvent,
  coinsExpiringEvent,
  EVENT_CONSUMERS,
  pendingCreatedEvent,
  pendingPostedEvent,
  pendingVoidedEvent,
  ruleCapReachedEvent,
  transferCompletedEvent,
  transferReversedEvent,
  treasuryLowEvent,
  userTierChangedEvent,
  webhooks,
} from '@coin/contracts';
import { type SourceStarter, starterOf, type WebhookEventSource } from './event-consumer.ts';

/** Ledger events taken together: one lookup per partner and one transaction per batch. */
const LEDGER_BATCH = 100;

/**
 * Every transfer of every partner passes here: a batch is filtered with the cached partner lookups
 * and recorded in one transaction.
 */
const transfersSource: WebhookEventSource<typeof transferCompletedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksTransfers,
  schema: transferCompletedEvent,
  kind: 'COINS_TRANSFERRED',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    ledgerEntryId: e.ledgerEntryId,
    userId: e.userId,
    transactionType: e.transactionType,
    debitOrCredit: e.debitOrCredit,
    coins: Number(e.coins),
  }),
};

const reversalsSource: WebhookEventSource<typeof transferReversedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksReversals,
  schema: transferReversedEvent,
  kind: 'COINS_REVERSED',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    ledgerEntryId: e.ledgerEntryId,
    userId: e.userId,
    debitOrCredit: e.debitOrCredit,
    coins: Number(e.coins),
    reversedEntryId: e.reversedEntryId,
  }),
};

const ruleCapsSource: WebhookEventSource<typeof ruleCapReachedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksRuleCaps,
  schema: ruleCapReachedEvent,
  kind: 'RULE_CAP_REACHED',
  fields: (e) => ({
    occurredAt: e.reachedAt,
    ruleId: e.ruleId,
    ruleName: e.ruleName,
    maxNumberOfParticipant: e.maxParticipants,
  }),
};

const tierChangesSource: WebhookEventSource<typeof userTierChangedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksTierChanges,
  schema: userTierChangedEvent,
  kind: 'USER_TIER_CHANGED',
  fields: (e) => ({
    occurredAt: e.changedAt,
    userId: e.userId,
    tierId: e.tierId,
    tierName: e.tierName,
    previousTierId: e.previousTierId,
    movedBy: e.movedBy ?? 'partner',
  }),
};

const treasurySource: WebhookEventSource<typeof treasuryLowEvent> = {
  consumer: EVENT_CONSUMERS.webhooksTreasury,
  schema: treasuryLowEvent,
  kind: 'TREASURY_LOW',
  fields: (e) => ({
    occurredAt: e.crossedAt,
    outstanding: Number(e.outstanding),
    issuanceLimit: Number(e.issuanceLimit),
    threshold: webhooks.TREASURY_LOW_SHARE,
  }),
};

const pendingCreatedSource: WebhookEventSource<typeof pendingCreatedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksPendingCreated,
  schema: pendingCreatedEvent,
  kind: 'COINS_PENDING',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    pendingTransferId: e.pendingTransferId,
    ledgerEntryId: e.ledgerEntryId,
    userId: e.userId,
    coins: Number(e.coins),
    expiresAt: e.expiresAt,
    onExpiry: e.onExpiry,
  }),
};

const pendingPostedSource: WebhookEventSource<typeof pendingPostedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksPendingPosted,
  schema: pendingPostedEvent,
  kind: 'COINS_PENDING_POSTED',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    pendingTransferId: e.pendingTransferId,
    ledgerEntryId: e.ledgerEntryId,
    userId: e.userId,
    coins: Number(e.coins),
    releasedCoins: Number(e.releasedCoins),
    releasedEntryId: e.releasedEntryId,
    resolvedBy: e.resolvedBy,
  }),
};

const pendingVoidedSource: WebhookEventSource<typeof pendingVoidedEvent> = {
  consumer: EVENT_CONSUMERS.webhooksPendingVoided,
  schema: pendingVoidedEvent,
  kind: 'COINS_PENDING_VOIDED',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    pendingTransferId: e.pendingTransferId,
    ledgerEntryId: e.ledgerEntryId,
    userId: e.userId,
    coins: Number(e.coins),
    resolvedBy: e.resolvedBy,
  }),
};

const coinsExpiringSource: WebhookEventSource<typeof coinsExpiringEvent> = {
  consumer: EVENT_CONSUMERS.webhooksCoinsExpiring,
  schema: coinsExpiringEvent,
  kind: 'COINS_EXPIRING',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    userId: e.userId,
    coins: Number(e.coins),
    expiresAt: e.expiresAt,
    lots: e.lots.map((l) => ({ lotId: l.lotId, coins: Number(l.coins), expiresAt: l.expiresAt })),
  }),
};

const coinsExpiredSource: WebhookEventSource<typeof coinsExpiredEvent> = {
  consumer: EVENT_CONSUMERS.webhooksCoinsExpired,
  schema: coinsExpiredEvent,
  kind: 'COINS_EXPIRED',
  batch: LEDGER_BATCH,
  fields: (e) => ({
    occurredAt: e.createdAt,
    ledgerEntryId: e.ledgerEntryId,
    userId: e.userId,
    lotId: e.lotId,
    coins: Number(e.coins),
    expiresAt: e.expiresAt,
  }),
};

/** The sources of every event kind but USER_ONBOARDING (its own module: it asks onboarding for the failures). */
export const eventSources: SourceStarter[] = [
  starterOf(transfersSource),
  starterOf(reversalsSource),
  starterOf(ruleCapsSource),
  starterOf(tierChangesSource),
  starterOf(treasurySource),
  starterOf(pendingCreatedSource),
  starterOf(pendingPostedSource),
  starterOf(pendingVoidedSource),
  starterOf(coinsExpiringSource),
  starterOf(coinsExpiredSource),
];
