import { z } from 'zod';
import { guid, isoTimestamp } from './common.ts';
import { decimalText, eventBase } from './event-base.ts';
import { onExpiry } from './pending-transfers.ts';

// The wallet's events about pending transfers and credit lots (their subjects: EVENT_SUBJECTS).

/** What every event about a pending transfer carries. */
const pendingEvent = eventBase.extend({
  pendingTransferId: guid,
  userId: guid,
  createdAt: isoTimestamp,
});

/** Coins held for a user: `ledgerEntryId` is the `pending_transfer` entry (and the transfer's id). */
export const pendingCreatedEvent = pendingEvent.extend({
  ledgerEntryId: guid,
  coins: decimalText,
  expiresAt: isoTimestamp.nullable(),
  onExpiry,
});

/**
 * Posted: `ledgerEntryId` credited `coins` to the user's wallet (it is also a transferCompleted);
 * `releasedCoins` went back to the partner by `releasedEntryId` when posted for less.
 */
export const pendingPostedEvent = pendingEvent.extend({
  ledgerEntryId: guid,
  coins: decimalText,
  releasedCoins: decimalText,
  releasedEntryId: guid.nullable(),
  resolvedBy: z.enum(['partner', 'expiry']),
});

/** Voided by the partner (status voided) or by its expiry (status expired): all `coins` went back. */
export const pendingVoidedEvent = pendingEvent.extend({
  ledgerEntryId: guid,
  coins: decimalText,
  status: z.enum(['voided', 'expired']),
  resolvedBy: z.enum(['partner', 'expiry']),
});

/** A user's coins that expire soon: `coins` in all, the soonest at `expiresAt`, lot by lot. */
export const coinsExpiringEvent = eventBase.extend({
  userId: guid,
  coins: decimalText,
  expiresAt: isoTimestamp,
  lots: z.array(z.object({ lotId: guid, coins: decimalText, expiresAt: isoTimestamp })),
  createdAt: isoTimestamp,
});

/** What was left of a credit lot (`lotId`, the credit's entry) expired: the `expiry` entry `ledgerEntryId`. */
export const coinsExpiredEvent = eventBase.extend({
  ledgerEntryId: guid,
  userId: guid,
  lotId: guid,
  coins: decimalText,
  expiresAt: isoTimestamp,
  createdAt: isoTimestamp,
});
