import { z } from 'zod';
import { operationsOf } from './operation.ts';

const { http } = operationsOf('wallet');

const decimal = z.number();

/** Coins you issued to and took back from your users in one calendar month (UTC), by day. */
export const coinSummary = http('coinSummary', 'GET /api/v1/laas/coins/summary', {
  permission: 'read',
  message: 'coin summary returned',
  summary: 'Coins issued and redeemed in a calendar month, with transfers per day',
  schemas: {
    query: z.object({
      year: z.coerce.number().int().min(2000).max(9999).optional(),
      month: z.coerce.number().int().min(1).max(12).optional(),
    }),
    response: z
      .object({
        year: z.number().int(),
        month: z.number().int(),
        /** Coins credited to users (`CR` entries: transfers to users and rule rewards). */
        issued: decimal,
        /** Coins taken back from users (`DE` entries). */
        redeemed: decimal,
        transfers: z.number().int(),
        /** Every day of the month, in order, days without transfers included. */
        days: z.array(
          z.object({ day: z.string(), transfers: z.number().int(), issued: decimal, redeemed: decimal }),
        ),
      })
      .meta({ id: 'CoinSummary', description: 'Coins issued and redeemed in a calendar month, by day.' }),
  },
});
