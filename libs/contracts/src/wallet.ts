import { z } from 'zod';
import { coinSummary } from './coin-summary.ts';
import { guid, isoTimestamp, pageQuery, paginationBlock } from './common.ts';
import { defineOperation, type Operation } from './operation.ts';
import { text } from './text.ts';

/** The largest number of coins one transfer may move. */
export const MAX_COINS_PER_TRANSFER = 1_000_000_000;

/** The smallest number of coins one transfer may move. */
export const MIN_COINS_PER_TRANSFER = 0.01;

/** A JSON number's shortest round-trip text (what `String` gives) with at most two decimals. */
const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;

/**
 * An amount of coins, bounded, with at most two decimal places decided on the number's decimal
 * text (1e-9 reads "1e-9", 10.001 reads "10.001"), never on a float tolerance.
 */
export const coinsAmount = z
  .number()
  .min(MIN_COINS_PER_TRANSFER, { abort: true })
  .max(MAX_COINS_PER_TRANSFER, { abort: true })
  .refine((n) => TWO_DECIMALS.test(String(n)), { error: 'must have at most 2 decimal places' })
  .meta({ multipleOf: MIN_COINS_PER_TRANSFER });

export const partySchema = z.object({
  id: z.string(),
  fullname_businessName: z.string(),
  email: z.string(),
  tag: z.string().nullable(),
  userId: z.string(),
});

/** The specification's coin ledger entry, as listed in history (without reversed/status/token). */
export const ledgerEntrySchema = z.object({
  id: guid,
  userId: guid,
  debitOrCredit: z.enum(['CR', 'DE']),
  coins: z.number(),
  claimed: z.boolean(),
  transactionType: z.string(),
  narration: z.string(),
  from: partySchema,
  to: partySchema,
  plan: z.object({}),
  paidWithGiftCard: z.boolean(),
  giftCardLedger: z.object({}),
  laas: z.boolean(),
  charge: z.number(),
  refunded: z.boolean(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

/** The ledger entry as a transfer returns it. */
export const transferLedgerEntrySchema = ledgerEntrySchema.extend({
  reversed: z.boolean(),
  status: z.literal('Success'),
  token: z.string().nullable(),
});

const transferBody = z.strictObject({
  userId: guid,
  coins: coinsAmount,
  /** Optional text for the ledger entry; a default narration is written without it. */
  narration: text({ max: 500 }).optional(),
});

const transferResponse = z.object({ isExisting: z.boolean(), coinsLedger: transferLedgerEntrySchema });

/**
 * Partner → user. Also the internal way other services pay a user (rules' rewards): they call this
 * subject with the partner's id and an idempotency key of their own.
 */
export const transferToUser = defineOperation({
  service: 'wallet',
  name: 'transferToUser',
  http: {
    method: 'POST',
    path: '/api/v1/laas/coins/transfer-to-user-wallet',
    auth: 'partner',
    idempotent: true,
    message: 'coin transferred',
    summary: "Move coins from the partner to a user's wallet",
  },
  callers: ['rules'],
  schemas: { body: transferBody, response: transferResponse },
});

export const transferFromUser = defineOperation({
  service: 'wallet',
  name: 'transferFromUser',
  http: {
    method: 'POST',
    path: '/api/v1/laas/coins/transfer-from-user-wallet',
    auth: 'partner',
    idempotent: true,
    message: 'coin transferred',
    summary: "Move coins from a user's wallet to the partner",
  },
  schemas: { body: transferBody, response: transferResponse },
});

/** A user's ledger entries, newest first. Unknown user for this partner → 404. */
export const getUserTransactions = defineOperation({
  service: 'wallet',
  name: 'getUserTransactions',
  http: {
    method: 'GET',
    path: '/api/v1/laas/coins/get-user-transactions',
    auth: 'partner',
    message: 'transaction history returned',
    summary: "A user's coin ledger entries, newest first, paginated",
  },
  schemas: {
    query: z.object({ userId: guid, ...pageQuery }),
    response: z.object({ data: z.array(ledgerEntrySchema), ...paginationBlock }),
  },
});

/** A user's wallet balance (0 before the first transfer). Unknown user for this partner → 404. */
export const getBalance = defineOperation({
  service: 'wallet',
  name: 'getBalance',
  http: {
    method: 'GET',
    path: '/api/v1/laas/coins/balance',
    auth: 'partner',
    message: 'balance returned',
    summary: "A user's wallet balance",
  },
  schemas: {
    query: z.object({ userId: guid }),
    response: z.object({ userId: guid, coins: z.number() }),
  },
});

/** The wallet service's operations (HTTP routes and internal NATS subjects). */
export const walletOperations: readonly Operation[] = [
  coinSummary,
  transferToUser,
  transferFromUser,
  getUserTransactions,
  getBalance,
];

export { coinSummary } from './coin-summary.ts';
