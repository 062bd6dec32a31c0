import { z } from 'zod';
import { guid, isoTimestamp, pageOf, pageQuery } from './common.ts';
import { coinsAmount, transferLedgerEntrySchema } from './ledger-entry.ts';
import { operationsOf } from './operation.ts';
import { text } from './text.ts';

const { http } = operationsOf('wallet');

/** The longest a pending transfer may wait for its expiry: a year and a day. */
export const MAX_PENDING_SECONDS = 366 * 24 * 3600;

/** pending → posted (in full or for less), voided (by you) or expired (voided by its expiry), once. */
const pendingStatus = z.enum(['pending', 'posted', 'voided', 'expired']);

/** What a pending transfer's expiry does: give the coins back to you, or post them to the user. */
export const onExpiry = z.enum(['void', 'post']);

/**
 * A transfer to a user held pending (transfer-to-user's `pending`): the coins leave you (they count
 * against your issuance limit) but the user cannot spend them until you post it.
 */
export const pendingOptions = z
  .strictObject({
    /** When it resolves by itself (ISO 8601 with an offset), at most MAX_PENDING_SECONDS ahead. */
    expiresAt: z.iso.datetime({ offset: true }).max(40).optional(),
    /** The same, in seconds from now. */
    expiresInSeconds: z.number().int().min(1).max(MAX_PENDING_SECONDS).optional(),
    onExpiry: onExpiry.default('void'),
  })
  .refine((o) => o.expiresAt === undefined || o.expiresInSeconds === undefined, {
    path: ['expiresInSeconds'],
    error: 'must not be given with expiresAt',
  })
  .refine((o) => o.onExpiry === 'void' || o.expiresAt !== undefined || o.expiresInSeconds !== undefined, {
    path: ['onExpiry'],
    error: 'may be post only with expiresAt or expiresInSeconds',
  });
export type PendingOptions = z.infer<typeof pendingOptions>;

export const pendingTransferSchema = z
  .object({
    /** Also the id of the ledger entry (`pending_transfer`) that created it. */
    id: guid,
    userId: guid,
    /** Coins held. */
    coins: z.number(),
    status: pendingStatus,
    expiresAt: isoTimestamp.nullable(),
    onExpiry,
    /** Coins posted to the user (status posted), at most `coins`. */
    postedCoins: z.number().nullable(),
    /** The entry that credited the user's wallet (a `partner_user_transfer` from the hold). */
    postEntryId: guid.nullable(),
    /** The entry (`pending_void`) that gave held coins back to you: a void, an expiry, or what a post left. */
    voidEntryId: guid.nullable(),
    /** Who resolved it: you, or its expiry. */
    resolvedBy: z.enum(['partner', 'expiry']).nullable(),
    createdAt: isoTimestamp,
    resolvedAt: isoTimestamp.nullable(),
  })
  .meta({
    id: 'PendingTransfer',
    description: 'A transfer to a user held pending: what it holds, and whether and how it was resolved.',
  });
export type PendingTransferView = z.infer<typeof pendingTransferSchema>;

const byId = z.object({ id: guid });

/**
 * Credits the user's wallet from a pending transfer: in full, or `coins` of it (the rest goes back to
 * you). At most once, whatever the concurrency; past its expiry, the expiry decides instead.
 */
export const postPendingTransfer = http(
  'postPendingTransfer',
  'POST /api/v1/laas/coins/pending-transfers/:id/post',
  {
    permission: 'coins',
    idempotent: true,
    message: 'pending transfer posted',
    summary: "Post a pending transfer (in full or for less) to the user's wallet",
    schemas: {
      params: byId,
      body: z.strictObject({
        /** Coins to post, at most the coins held; the whole hold when absent. */
        coins: coinsAmount.optional(),
        /** Text of the crediting entry; a default naming the pending transfer without it. */
        narration: text({ max: 500 }).optional(),
      }),
      response: z
        .object({
          isExisting: z.boolean(),
          pendingTransfer: pendingTransferSchema,
          /** The credit to the user's wallet. */
          coinsLedger: transferLedgerEntrySchema,
          /** What the post left, given back to you; null when posted in full. */
          releasedLedger: transferLedgerEntrySchema.nullable(),
        })
        .meta({ id: 'PendingTransferPost', description: 'A post: the credit, and what it gave back.' }),
    },
  },
);

/** Gives a pending transfer's coins back to you. At most once, whatever the concurrency. */
export const voidPendingTransfer = http(
  'voidPendingTransfer',
  'POST /api/v1/laas/coins/pending-transfers/:id/void',
  {
    permission: 'coins',
    idempotent: true,
    message: 'pending transfer voided',
    summary: 'Void a pending transfer: its coins go back to you',
    schemas: {
      params: byId,
      body: z.strictObject({
        /** Why; kept in the void entry's narration. */
        reason: text({ max: 500 }).optional(),
      }),
      response: z
        .object({
          isExisting: z.boolean(),
          pendingTransfer: pendingTransferSchema,
          /** The `pending_void` entry. */
          coinsLedger: transferLedgerEntrySchema,
        })
        .meta({ id: 'PendingTransferVoid', description: 'A void: the entry that gave the coins back.' }),
    },
  },
);

export const getPendingTransfer = http('getPendingTransfer', 'GET /api/v1/laas/coins/pending-transfers/:id', {
  permission: 'read',
  message: 'pending transfer returned',
  summary: 'One pending transfer and what became of it',
  schemas: { params: byId, response: pendingTransferSchema },
});

export const listPendingTransfers = http('listPendingTransfers', 'GET /api/v1/laas/coins/pending-transfers', {
  permission: 'read',
  message: 'pending transfers returned',
  summary: 'Your pending transfers, newest first; by user and status',
  schemas: {
    query: z.object({ ...pageQuery, userId: guid.optional(), status: pendingStatus.optional() }),
    response: pageOf(pendingTransferSchema),
  },
});
