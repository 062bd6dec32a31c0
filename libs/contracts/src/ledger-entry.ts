import { z } from 'zod';
import { guid, isoTimestamp } from './common.ts';

/** The largest number of coins one transfer may move. */
export const MAX_COINS_PER_TRANSFER = 1_000_000_000;

/** The smallest number of coins one transfer may move. */
const MIN_COINS_PER_TRANSFER = 0.01;

/** A JSON number's shortest round-trip text (what `String` gives) with at most two decimals. */
const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;

/**
 * A bounded number with at most two decimal places, decided on its decimal text (1e-9 reads
 * "1e-9", 10.001 reads "10.001"), never on a float tolerance. A number out of bounds is named for
 * that alone (-5 is not also "more than two decimals").
 */
export function twoDecimalNumber(min: number, max: number) {
  return z
    .number()
    .min(min, { abort: true })
    .max(max, { abort: true })
    .refine((n) => TWO_DECIMALS.test(String(n)), { error: 'must have at most 2 decimal places' });
}

/** An amount of coins. */
export const coinsAmount = twoDecimalNumber(MIN_COINS_PER_TRANSFER, MAX_COINS_PER_TRANSFER).meta({
  multipleOf: MIN_COINS_PER_TRANSFER,
});

/** A ledger entry from the user's side: CR when coins reach the user, DE when they leave. */
export const entrySide = z.enum(['CR', 'DE']);

/** The transfers between a partner and a user (rule rewards are partner → user). */
export const transferType = z.enum(['partner_user_transfer', 'user_partner_transfer']);

export const partySchema = z
  .object({
    id: z.string(),
    fullname_businessName: z.string(),
    email: z.string(),
    tag: z.string().nullable(),
    userId: z.string(),
  })
  .meta({ id: 'Party', description: 'One side of a ledger entry: the partner or one of its users.' });

/**
 * The coin ledger entry of the specification (docs/specification.md), as listed in history (without
 * reversed/status/token).
 */
export const ledgerEntrySchema = z
  .object({
    id: guid,
    userId: guid,
    debitOrCredit: entrySide,
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
    /** The entry has been reversed (a `reversal` entry corrects it). */
    refunded: z.boolean(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    /** The user's wallet balance right after this entry. */
    balanceAfter: z.number(),
    /** A credit with a validity (it opened a lot): when what is left of it expires. */
    expiresAt: isoTimestamp.optional(),
  })
  .meta({
    id: 'LedgerEntry',
    description:
      "A coin ledger entry, from the user's side: CR when coins reach the user, DE when they leave.",
  });

/** The ledger entry's fields for what this project does not offer (plans, gift cards, charges): always these. */
export const ledgerEntryNotOffered = {
  plan: {},
  paidWithGiftCard: false,
  giftCardLedger: {},
  laas: true,
  charge: 0,
} satisfies Partial<z.infer<typeof ledgerEntrySchema>>;

/** The ledger entry as a transfer returns it. */
export const transferLedgerEntrySchema = ledgerEntrySchema
  .extend({
    reversed: z.boolean(),
    status: z.literal('Success'),
    token: z.string().nullable(),
  })
  .meta({
    id: 'TransferLedgerEntry',
    description: 'A ledger entry as a transfer, reward or reversal answers it.',
  });
