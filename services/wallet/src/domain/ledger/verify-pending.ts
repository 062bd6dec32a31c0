import type { LedgerCheck } from './verify.ts';

/** The kind of account an entry's user side is on (SQL on `ledger_entries e`): its hold or its wallet. */
export const USER_SIDE = `(CASE WHEN e.transaction_type IN ('pending_transfer', 'pending_void') THEN 'hold' ELSE 'user' END)`;

/**
 * Pending transfers against the entries and holds they moved: a hold is what its user's pending
 * transfers hold, each transfer's entries are the ones its status says, and no entry of a pending
 * transfer is without one.
 */
export const PENDING_CHECKS: LedgerCheck[] = [
  {
    name: "each hold is its user's pending transfers",
    sql: `SELECT a.partner_id, a.user_id, a.balance::text AS held, COALESCE(p.total, 0)::text AS pending
            FROM accounts a
            LEFT JOIN (SELECT partner_id, user_id, sum(coins) AS total FROM pending_transfers
                        WHERE status = 'pending' GROUP BY partner_id, user_id) p
              ON p.partner_id = a.partner_id AND p.user_id = a.user_id
           WHERE a.kind = 'hold' AND a.balance <> COALESCE(p.total, 0)
          UNION ALL
          SELECT p.partner_id, p.user_id, '0', sum(p.coins)::text FROM pending_transfers p
           WHERE p.status = 'pending' AND NOT EXISTS (
                   SELECT 1 FROM accounts a WHERE a.kind = 'hold' AND a.partner_id = p.partner_id AND a.user_id = p.user_id)
           GROUP BY p.partner_id, p.user_id`,
    describe: (r) =>
      `user ${r.user_id} (partner ${r.partner_id}): the hold has ${r.held}, pending transfers hold ${r.pending}`,
  },
  {
    name: 'each pending transfer is held by its entry and resolved by the entries its status says',
    sql: `SELECT p.id, p.status FROM pending_transfers p
            LEFT JOIN ledger_entries h ON h.id = p.id
            LEFT JOIN ledger_entries c ON c.id = p.post_entry_id
            LEFT JOIN ledger_entries v ON v.id = p.void_entry_id
           WHERE h.id IS NULL OR h.transaction_type <> 'pending_transfer' OR h.debit_or_credit <> 'CR'
              OR h.coins <> p.coins OR h.partner_id <> p.partner_id OR h.user_id <> p.user_id
              OR (p.post_entry_id IS NOT NULL AND (c.id IS NULL OR c.transaction_type <> 'partner_user_transfer'
                  OR c.debit_or_credit <> 'CR' OR c.coins <> p.posted_coins OR c.user_id <> p.user_id OR c.seq < h.seq))
              OR (p.void_entry_id IS NOT NULL AND (v.id IS NULL OR v.transaction_type <> 'pending_void'
                  OR v.debit_or_credit <> 'DE' OR v.coins <> p.coins - COALESCE(p.posted_coins, 0)
                  OR v.user_id <> p.user_id OR v.seq < h.seq))`,
    describe: (r) => `pending transfer ${r.id} (${r.status}): its entries do not match it`,
  },
  {
    name: 'every entry of a pending transfer belongs to exactly one',
    sql: `SELECT e.id, e.transaction_type FROM ledger_entries e
           WHERE e.transaction_type = 'pending_transfer' AND e.id NOT IN (SELECT id FROM pending_transfers)
          UNION ALL
          SELECT e.id, e.transaction_type FROM ledger_entries e
           WHERE e.transaction_type = 'pending_void'
             AND e.id NOT IN (SELECT void_entry_id FROM pending_transfers WHERE void_entry_id IS NOT NULL)
          UNION ALL
          SELECT e.id, e.transaction_type FROM postings x
            JOIN accounts a ON a.id = x.account_id AND a.kind = 'hold'
            JOIN ledger_entries e ON e.id = x.entry_id AND e.transaction_type = 'partner_user_transfer'
           WHERE e.id NOT IN (SELECT post_entry_id FROM pending_transfers WHERE post_entry_id IS NOT NULL)
          UNION ALL
          SELECT entry_id, 'shared' FROM (
            SELECT post_entry_id AS entry_id FROM pending_transfers WHERE post_entry_id IS NOT NULL
            UNION ALL
            SELECT void_entry_id FROM pending_transfers WHERE void_entry_id IS NOT NULL) x
           GROUP BY entry_id HAVING count(*) > 1`,
    describe: (r) => `entry ${r.id} (${r.transaction_type}) is not the entry of exactly one pending transfer`,
  },
];
