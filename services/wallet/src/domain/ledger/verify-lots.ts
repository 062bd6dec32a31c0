import type { LedgerCheck } from './verify.ts';

/**
 * Credit lots against the entries and wallets they describe: a lot's coins are what remains, what
 * expired and what debits took (less what reversals gave back), none spent twice; each expiry entry
 * closes exactly one lot, once; no wallet holds less than its open lots.
 */
export const LOT_CHECKS: LedgerCheck[] = [
  {
    name: "each lot is its credit's coins: remaining + expired + spent",
    sql: `SELECT c.id, c.coins::text, c.remaining::text, COALESCE(c.expired_coins, 0)::text AS expired,
                 COALESCE(s.spent, 0)::text AS spent
            FROM credit_lots c
            LEFT JOIN (SELECT lot_id, sum(coins) AS spent FROM credit_lot_spends GROUP BY lot_id) s ON s.lot_id = c.id
            LEFT JOIN ledger_entries o ON o.id = c.id
           WHERE c.coins <> c.remaining + COALESCE(c.expired_coins, 0) + COALESCE(s.spent, 0)
              OR COALESCE(s.spent, 0) < 0
              OR o.id IS NULL OR o.debit_or_credit <> 'CR' OR o.coins <> c.coins
              OR o.partner_id <> c.partner_id OR o.user_id <> c.user_id`,
    describe: (r) =>
      `lot ${r.id}: ${r.coins} coins but ${r.remaining} remaining + ${r.expired} expired + ${r.spent} spent (or its credit does not match)`,
  },
  {
    name: 'no debit takes from lots more than its coins, and only from its own user',
    sql: `SELECT s.entry_id, sum(s.coins)::text AS taken, e.coins::text AS coins FROM credit_lot_spends s
            JOIN credit_lots c ON c.id = s.lot_id
            LEFT JOIN ledger_entries e ON e.id = s.entry_id
           GROUP BY s.entry_id, e.coins
          HAVING e.coins IS NULL OR abs(sum(s.coins)) > e.coins
              OR bool_or(e.partner_id <> c.partner_id OR e.user_id <> c.user_id)`,
    describe: (r) => `entry ${r.entry_id} moved ${r.taken} of lots, but it is ${r.coins ?? 'missing'}`,
  },
  {
    name: 'each expiry entry closes exactly one lot, for what the lot had left',
    sql: `SELECT e.id, e.coins::text, c.id AS lot FROM ledger_entries e
            LEFT JOIN credit_lots c ON c.expiry_entry_id = e.id
           WHERE e.transaction_type = 'expiry'
             AND (c.id IS NULL OR c.expired_coins <> e.coins OR e.debit_or_credit <> 'DE'
                  OR c.user_id <> e.user_id OR c.partner_id <> e.partner_id)
          UNION ALL
          SELECT c.expiry_entry_id, c.expired_coins::text, c.id FROM credit_lots c
           WHERE c.expiry_entry_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = c.expiry_entry_id AND e.transaction_type = 'expiry')`,
    describe: (r) => `expiry entry ${r.id} (${r.coins}) does not close lot ${r.lot ?? '(none)'} exactly`,
  },
  {
    name: 'no wallet holds less than its open lots',
    sql: `SELECT c.partner_id, c.user_id, sum(c.remaining)::text AS open, COALESCE(a.balance, 0)::text AS balance
            FROM credit_lots c
            LEFT JOIN accounts a ON a.kind = 'user' AND a.partner_id = c.partner_id AND a.user_id = c.user_id
           WHERE c.remaining > 0
           GROUP BY c.partner_id, c.user_id, a.balance
          HAVING sum(c.remaining) > COALESCE(a.balance, 0)`,
    describe: (r) =>
      `user ${r.user_id} (partner ${r.partner_id}): open lots hold ${r.open}, the wallet ${r.balance}`,
  },
];
