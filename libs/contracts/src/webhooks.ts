import { z } from 'zod';
import { guid, isoTimestamp, pagedList } from './common.ts';
import { entrySide, transferType } from './ledger-entry.ts';
import { onboardingFailureSchema } from './onboarding-requests.ts';
import { type Operation, operationsOf } from './operation.ts';
import { onExpiry } from './pending-transfers.ts';

const { http } = operationsOf('webhooks');

/** Every kind of event a partner's webhook URL receives; a partner subscribes to some or all. */
export const EVENT_KINDS = [
  'USER_ONBOARDING',
  'COINS_TRANSFERRED',
  'COINS_REVERSED',
  'RULE_CAP_REACHED',
  'USER_TIER_CHANGED',
  'TREASURY_LOW',
  'COINS_PENDING',
  'COINS_PENDING_POSTED',
  'COINS_PENDING_VOIDED',
  'COINS_EXPIRING',
  'COINS_EXPIRED',
] as const;
export const eventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKind>;

/** Outstanding coins at or above this share of the issuance limit make TREASURY_LOW. */
export const TREASURY_LOW_SHARE = 0.8;

/**
 * What every webhook body carries. `sequence` numbers the partner's deliveries 1, 2, 3… with no gap
 * and no repeat, counting only the kinds the partner subscribed to when the event was recorded.
 */
function payload<K extends EventKind, F extends z.ZodRawShape>(kind: K, fields: F) {
  return z.object({
    event: z.literal(kind),
    status: z.literal('success'),
    occurredAt: isoTimestamp,
    sequence: z.number().int().min(1),
    ...fields,
  });
}

/** The body POSTed to the partner for each kind, exactly as sent (`GET /webhooks/events` lists them). */
export const payloadSchemas = {
  USER_ONBOARDING: payload('USER_ONBOARDING', {
    requestId: guid,
    failed: z.array(onboardingFailureSchema),
  }),
  COINS_TRANSFERRED: payload('COINS_TRANSFERRED', {
    ledgerEntryId: guid,
    userId: guid,
    transactionType: transferType,
    debitOrCredit: entrySide,
    coins: z.number(),
  }),
  COINS_REVERSED: payload('COINS_REVERSED', {
    ledgerEntryId: guid,
    userId: guid,
    debitOrCredit: entrySide,
    coins: z.number(),
    reversedEntryId: guid,
  }),
  RULE_CAP_REACHED: payload('RULE_CAP_REACHED', {
    ruleId: guid,
    ruleName: z.string(),
    maxNumberOfParticipant: z.number().int(),
  }),
  USER_TIER_CHANGED: payload('USER_TIER_CHANGED', {
    userId: guid,
    tierId: guid,
    tierName: z.string(),
    previousTierId: guid.nullable(),
    movedBy: z.enum(['rule', 'partner']),
  }),
  TREASURY_LOW: payload('TREASURY_LOW', {
    outstanding: z.number(),
    issuanceLimit: z.number(),
    threshold: z.number(),
  }),
  COINS_PENDING: payload('COINS_PENDING', {
    pendingTransferId: guid,
    ledgerEntryId: guid,
    userId: guid,
    coins: z.number(),
    expiresAt: isoTimestamp.nullable(),
    onExpiry,
  }),
  COINS_PENDING_POSTED: payload('COINS_PENDING_POSTED', {
    pendingTransferId: guid,
    ledgerEntryId: guid,
    userId: guid,
    coins: z.number(),
    releasedCoins: z.number(),
    releasedEntryId: guid.nullable(),
    resolvedBy: z.enum(['partner', 'expiry']),
  }),
  COINS_PENDING_VOIDED: payload('COINS_PENDING_VOIDED', {
    pendingTransferId: guid,
    ledgerEntryId: guid,
    userId: guid,
    coins: z.number(),
    /** partner: you voided it; expiry: it expired (the pending transfer's status is then expired). */
    resolvedBy: z.enum(['partner', 'expiry']),
  }),
  /** Coins of the user expire soon (WALLET_EXPIRY_WARNING_DAYS ahead), told once per lot. */
  COINS_EXPIRING: payload('COINS_EXPIRING', {
    userId: guid,
    /** What these lots still hold now; spending before `expiresAt` takes from them first. */
    coins: z.number(),
    /** The soonest of the lots' expiries. */
    expiresAt: isoTimestamp,
    lots: z.array(z.object({ lotId: guid, coins: z.number(), expiresAt: isoTimestamp })),
  }),
  /** What was left of a credit (`lotId`, its ledger entry) expired: debited by the `expiry` entry. */
  COINS_EXPIRED: payload('COINS_EXPIRED', {
    ledgerEntryId: guid,
    userId: guid,
    lotId: guid,
    coins: z.number(),
    expiresAt: isoTimestamp,
  }),
} as const satisfies Record<EventKind, z.ZodType>;
export type EventPayload<K extends EventKind> = z.infer<(typeof payloadSchemas)[K]>;

const deliveryStatus = z.enum(['pending', 'delivered', 'failed']);

const deliveryAttemptSchema = z
  .object({
    attempt: z.number().int(),
    url: z.string().nullable(),
    startedAt: isoTimestamp,
    /** Null while the attempt is in flight, or when the process died during it (outcome unknown). */
    finishedAt: isoTimestamp.nullable(),
    statusCode: z.number().int().nullable(),
    /**
     * `HTTP <status>` for a non-2xx answer; without an answer a class, never the raw error:
     * address_refused, dns_error, connection_refused, timeout, tls_error or connection_error.
     */
    error: z.string().nullable(),
    /** Milliseconds to the answer; null when there was none (times are then whole seconds). */
    durationMs: z.number().int().nullable(),
    /** An extra attempt the partner asked for (redeliver) while the delivery was pending, beside its schedule. */
    manual: z.boolean(),
  })
  .meta({ id: 'DeliveryAttempt', description: 'One attempt to deliver a webhook.' });

export const deliverySchema = z
  .object({
    id: guid,
    event: z.string(),
    eventId: guid,
    status: deliveryStatus,
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: isoTimestamp.nullable(),
    deliveredAt: isoTimestamp.nullable(),
    /** The body's `sequence` (null for a delivery recorded before sequences existed). */
    sequence: z.number().int().nullable(),
    createdAt: isoTimestamp,
    attemptLog: z.array(deliveryAttemptSchema),
  })
  .meta({ id: 'Delivery', description: 'A webhook delivery, with every attempt.' });

export const listDeliveries = http('listDeliveries', 'GET /api/v1/laas/webhooks/deliveries', {
  permission: 'read',
  message: 'webhook deliveries returned',
  summary: 'Your webhook deliveries, newest first, with every attempt',
  schemas: pagedList(deliverySchema, { status: deliveryStatus.optional() }),
});

export const retryDelivery = http('retryDelivery', 'POST /api/v1/laas/webhooks/deliveries/:id/retry', {
  permission: 'webhooks',
  message: 'webhook delivery scheduled',
  summary: 'Redeliver: one more attempt now (also re-enables an endpoint disabled by 410)',
  rateLimit: 'partner',
  schemas: { params: z.object({ id: guid }), response: deliverySchema },
});

export const listEventKinds = http('listEventKinds', 'GET /api/v1/laas/webhooks/events', {
  permission: 'read',
  message: 'webhook events returned',
  summary: 'The kinds of webhook events, each with the JSON Schema of its body',
  schemas: {
    response: z.object({
      data: z.array(
        z.object({
          event: eventKind,
          description: z.string(),
          schema: z.record(z.string(), z.unknown()),
        }),
      ),
    }),
  },
});

/** The webhooks service's operations (HTTP routes and internal NATS subjects). */
export const webhooksOperations: readonly Operation[] = [listDeliveries, retryDelivery, listEventKinds];
