import { z } from 'zod';
import { isoTimestamp } from './common.ts';

/** The longest validity in days: ten years. */
export const MAX_VALIDITY_DAYS = 3660;

/**
 * How long the coins of a credit stay spendable: `days` after the credit, or to the end of its
 * calendar month or year (UTC). A credit with a validity opens a lot; spending takes from the lots
 * that expire first; what is left of a lot at its end expires (an `expiry` entry).
 */
export const periodValiditySchema = z.union([
  z.strictObject({ days: z.number().int().min(1).max(MAX_VALIDITY_DAYS) }),
  z.strictObject({ endOf: z.enum(['month', 'year']) }),
]);

/**
 * A credit's validity: a period, an instant (`expiresAt`, in the future, at most MAX_VALIDITY_DAYS
 * ahead), or seconds from the credit (`expiresInSeconds`: a retry with its key replays whenever it
 * comes, where an instant passed meanwhile would be refused).
 */
export const validitySchema = z.union([
  periodValiditySchema,
  z.strictObject({ expiresAt: z.iso.datetime({ offset: true }).max(40) }),
  z.strictObject({
    expiresInSeconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_VALIDITY_DAYS * 86_400),
  }),
]);
export type Validity = z.infer<typeof validitySchema>;
export type PeriodValidity = z.infer<typeof periodValiditySchema>;

/** A user's coins that expire at one time. */
export const expiringCoinsSchema = z
  .object({ coins: z.number(), expiresAt: isoTimestamp })
  .meta({ id: 'ExpiringCoins', description: 'Coins of a user that expire at `expiresAt`.' });
