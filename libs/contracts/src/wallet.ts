import { z } from 'zod';
import { coinSummary } from './coin-summary.ts';
import { guid, isoTimestamp, pageOf, pageQuery } from './common.ts';
import {
  coinsAmount,
  entrySide,
  ledgerEntrySchema,
  partySchema,
  transferLedgerEntrySchema,
  twoDecimalNumber,
} from './ledger-entry.ts';
import { type Operation, operationsOf } from './operation.ts';
import {
  getPendingTransfer,
  listPendingTransfers,
  pendingOptions,
  pendingTransferSchema,
  postPendingTransfer,
  voidPendingTransfer,
} from './pending-transfers.ts';
import { text } from './text.ts';
import { expiringCoinsSchema, periodValiditySchema, validitySchema } from './validity.ts';

export * from './ledger-entry.ts';
export * from './pending-transfers.ts';
export * from './validity.ts';

const { http } = operationsOf('wallet');

const transferBody = z.strictObject({
  userId: guid,
  coins: coinsAmount,
  /** Optional text for the ledger entry; a default narration is written without it. */
  narration: text({ max: 500 }).optional(),
});

const transferResponse = z
  .object({
    isExisting: z.boolean(),
    coinsLedger: transferLedgerEntrySchema,
    /** Present when a transfer to a user was made pending: what became of it so far. */
    pendingTransfer: pendingTransferSchema.optional(),
  })
  .meta({
    id: 'Transfer',
    description: 'A transfer: its ledger entry, and whether its Idempotency-Key replayed it.',
  });

/**
 * Partner → user. Also the internal way other services pay a user (rules' rewards): they call this
 * subject with the partner's id and an idempotency key of their own. With `pending`, the coins are
 * held (a `pending_transfer` entry) until posted, voided or expired.
 */
export const transferToUser = http('transferToUser', 'POST /api/v1/laas/coins/transfer-to-user-wallet', {
  permission: 'coins',
  idempotent: true,
  message: 'coin transferred',
  summary: "Move coins from the partner to a user's wallet (at once, or held pending)",
  callers: ['rules'],
  schemas: {
    body: transferBody
      .extend({
        pending: pendingOptions.optional(),
        /** The credit's validity; without it, your default (the treasury's `defaultValidity`), if any. */
        validity: validitySchema.optional(),
      })
      .refine((b) => b.pending === undefined || b.validity === undefined, {
        path: ['validity'],
        error: 'must not be given with pending: a posted pending transfer opens no lot',
      }),
    response: transferResponse,
  },
});

export const transferFromUser = http(
  'transferFromUser',
  'POST /api/v1/laas/coins/transfer-from-user-wallet',
  {
    permission: 'coins',
    idempotent: true,
    message: 'coin transferred',
    summary: "Move coins from a user's wallet to the partner",
    schemas: { body: transferBody, response: transferResponse },
  },
);

/** A history cursor: opaque to partners (the position of the last entry of a page). */
const historyCursor = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, { error: 'must be a nextCursor returned by this endpoint' });

/**
 * A user's ledger entries, newest first. Unknown user for this partner → 404. With `cursor` (the
 * previous page's `nextCursor`) the page starts after that entry, whatever arrived meanwhile, and
 * `page` is ignored; `nextCursor` is null on the last page.
 */
export const getUserTransactions = http(
  'getUserTransactions',
  'GET /api/v1/laas/coins/get-user-transactions',
  {
    permission: 'read',
    message: 'transaction history returned',
    summary: "A user's coin ledger entries, newest first, paginated",
    schemas: {
      query: z.object({ userId: guid, ...pageQuery, cursor: historyCursor.optional() }),
      response: pageOf(ledgerEntrySchema, { nextCursor: z.string().nullable() }),
    },
  },
);

/** A user's wallet balance (0 before the first transfer). Unknown user for this partner → 404. */
export const getBalance = http('getBalance', 'GET /api/v1/laas/coins/balance', {
  permission: 'read',
  message: 'balance returned',
  summary: "A user's wallet balance: available and pending",
  schemas: {
    query: z.object({ userId: guid }),
    response: z
      .object({
        userId: guid,
        /** The coins the user can spend now (the same as `available`). */
        coins: z.number(),
        available: z.number(),
        /** Coins held for the user by pending transfers, not spendable until posted. */
        pending: z.number(),
        /** The user's coins that will expire, soonest first (at most 10 times); spent first. */
        expiring: z.array(expiringCoinsSchema),
      })
      .meta({ id: 'Balance', description: "A user's wallet balance." }),
  },
});

/**
 * Corrects a ledger entry with a new one: parties swapped, same coins, `transactionType: 'reversal'`.
 * At most once per entry; a reversal cannot itself be reversed.
 */
export const reverseTransfer = http('reverseTransfer', 'POST /api/v1/laas/coins/reverse', {
  permission: 'coins',
  idempotent: true,
  message: 'coin transfer reversed',
  summary: 'Reverse a transfer or reward with a correcting ledger entry',
  schemas: {
    body: z.strictObject({
      ledgerEntryId: guid,
      /** Why; kept with the reversal and named in its narration. */
      reason: text({ max: 500 }).optional(),
    }),
    response: z
      .object({
        isExisting: z.boolean(),
        coinsLedger: transferLedgerEntrySchema,
        reversedEntry: transferLedgerEntrySchema,
      })
      .meta({ id: 'Reversal', description: 'A reversal: the correcting entry and the entry it reversed.' }),
  },
});

/** Coins as the treasury counts them, net of reversals; `issuanceLimit` null when unlimited. */
const treasuryResponse = z
  .object({
    issued: z.number(),
    redeemed: z.number(),
    /** Coins that expired (credit lots past their validity), back with you. */
    expired: z.number(),
    outstanding: z.number(),
    issuanceLimit: z.number().nullable(),
    /** The validity of credits that name none; null: they do not expire. */
    defaultValidity: periodValiditySchema.nullable(),
  })
  .meta({ id: 'Treasury', description: 'Coins issued, redeemed and outstanding, and the issuance limit.' });

export const getTreasury = http('getTreasury', 'GET /api/v1/laas/coins/treasury', {
  permission: 'read',
  message: 'treasury returned',
  summary: 'Coins issued, redeemed and outstanding, and the issuance limit',
  schemas: { response: treasuryResponse },
});

export const setTreasury = http('setTreasury', 'PUT /api/v1/laas/coins/treasury', {
  permission: 'treasury',
  stepUp: true,
  message: 'treasury updated',
  summary: 'Set or clear the issuance limit and the default validity of credits',
  schemas: {
    body: z
      .strictObject({
        /** The most coins your users may hold in all; null removes the limit; absent keeps it. */
        issuanceLimit: twoDecimalNumber(0, 1e15).nullable().optional(),
        /** The validity of credits that name none (new credits only); null: they do not expire. */
        defaultValidity: periodValiditySchema.nullable().optional(),
      })
      .refine((b) => b.issuanceLimit !== undefined || b.defaultValidity !== undefined, {
        error: 'give issuanceLimit, defaultValidity or both',
      }),
    response: treasuryResponse,
  },
});

/** One entry of a partner's hash chain, with what the chain covers (docs/partners/coins-and-ledger.md, "A ledger you can verify"). */
const chainEntrySchema = z
  .object({
    /** Position in the partner's chain: 1, 2, … with no gaps. */
    seq: z.number().int(),
    hash: z.string(),
    prevHash: z.string(),
    id: guid,
    userId: guid,
    transactionType: z.string(),
    debitOrCredit: entrySide,
    /** Exact decimal text, two places. */
    coins: z.string(),
    balanceAfter: z.string().nullable(),
    narration: z.string(),
    from: partySchema,
    to: partySchema,
    createdAt: isoTimestamp,
  })
  .meta({ id: 'ChainEntry', description: 'A sealed ledger entry in your hash chain.' });

const MAX_EXPORT_PAGE = 1000;

/** The partner's sealed ledger in chain order, after position `after` (0: from the start). */
export const ledgerExport = http('ledgerExport', 'GET /api/v1/laas/coins/ledger-export', {
  permission: 'export',
  message: 'ledger exported',
  summary: 'Your sealed ledger entries in hash-chain order, to verify',
  schemas: {
    query: z.object({
      after: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(MAX_EXPORT_PAGE).default(100),
    }),
    response: z
      .object({
        entries: z.array(chainEntrySchema),
        /** Pass as `after` for the next page; null when this page reached the sealed end. */
        nextAfter: z.number().int().nullable(),
      })
      .meta({ id: 'LedgerExportPage', description: 'A page of your hash chain, in chain order.' }),
  },
});

/** The wallet service's operations (HTTP routes and internal NATS subjects). */
export const walletOperations: readonly Operation[] = [
  coinSummary,
  transferToUser,
  transferFromUser,
  getUserTransactions,
  getBalance,
  reverseTransfer,
  getTreasury,
  setTreasury,
  ledgerExport,
  postPendingTransfer,
  voidPendingTransfer,
  getPendingTransfer,
  listPendingTransfers,
];

export { coinSummary } from './coin-summary.ts';
