import type pg from 'pg';
import { CHAIN_COLUMNS, chainEntryFromRow, chainHash, GENESIS_HASH } from './chain.ts';
import { LOT_CHECKS } from './verify-lots.ts';
import { PENDING_CHECKS, USER_SIDE } from './verify-pending.ts';

export interface LedgerReport {
  partners: number;
  accounts: number;
  entries: number;
  /** Coins held in user wallets, over all partners. */
  coinsInWallets: string;
  /** Coins held for users by pending transfers, and how many are pending. */
  coinsHeld: string;
  pendingTransfers: number;
  /** Coins in credit lots not expired yet, and coins expired so far. */
  coinsInLots: string;
  coinsExpired: string;
  violations: string[];
  /** Entries in a partner's hash chain, and committed entries not sealed yet. */
  sealed: number;
  unsealed: number;
}

const CHAIN_PAGE = 10_000;

/**
 * Recomputes every partner's hash chain from the entries as stored now: a changed entry (or hash)
 * breaks its link, a removed or inserted one breaks the positions.
 */
async function verifyChains(client: pg.ClientBase, violations: string[]): Promise<number> {
  let after: [string, number] = ['00000000-0000-0000-0000-000000000000', 0];
  let prev = { partner: '', seq: 0, hash: GENESIS_HASH };
  let sealed = 0;
  for (;;) {
    const { rows } = await client.query(
      `SELECT c.partner_id, ${CHAIN_COLUMNS} FROM ledger_chain c JOIN ledger_entries e ON e.id = c.entry_id
        WHERE (c.partner_id, c.chain_seq) > ($1::uuid, $2::bigint)
        ORDER BY c.partner_id, c.chain_seq LIMIT ${CHAIN_PAGE}`,
      after,
    );
    for (const r of rows) {
      if (r.partner_id !== prev.partner) prev = { partner: r.partner_id, seq: 0, hash: GENESIS_HASH };
      const entry = chainEntryFromRow(r);
      const where = `partner ${r.partner_id} chain position ${entry.seq} (entry ${entry.id})`;
      if (entry.seq !== prev.seq + 1) violations.push(`hash chain: ${where} follows position ${prev.seq}`);
      else if (r.prev_hash !== prev.hash)
        violations.push(`hash chain: ${where} does not link to the one before`);
      else if (chainHash(prev.hash, entry) !== r.hash)
        violations.push(`hash chain: ${where} does not match its hash (the entry or its hash was changed)`);
      prev = { partner: r.partner_id, seq: entry.seq, hash: r.hash };
      sealed += 1;
    }
    if (rows.length < CHAIN_PAGE) return sealed;
    after = [prev.partner, prev.seq];
  }
}

/** One invariant: the rows that break it, and how to say so. */
export interface LedgerCheck {
  name: string;
  sql: string;
  describe: (r: Record<string, string>) => string;
}

const CHECKS: LedgerCheck[] = [
  {
    name: 'sum per partner is zero',
    sql: `SELECT partner_id, sum(balance)::text AS total FROM accounts GROUP BY partner_id HAVING sum(balance) <> 0`,
    describe: (r) => `partner ${r.partner_id}: accounts sum to ${r.total}, not 0`,
  },
  {
    name: 'each balance equals its postings',
    sql: `SELECT a.id::text, a.kind, a.balance::text, COALESCE(p.total, 0)::text AS postings
            FROM accounts a
            LEFT JOIN (SELECT account_id, sum(amount) AS total FROM postings GROUP BY account_id) p
              ON p.account_id = a.id
           WHERE a.balance <> COALESCE(p.total, 0)`,
    describe: (r) =>
      `account ${r.id} (${r.kind}): balance ${r.balance} but its postings sum to ${r.postings}`,
  },
  {
    name: 'no negative user wallet or hold',
    sql: `SELECT id::text, kind, partner_id, user_id, balance::text FROM accounts WHERE kind <> 'partner' AND balance < 0`,
    describe: (r) => `${r.kind} of user ${r.user_id} (partner ${r.partner_id}) is negative: ${r.balance}`,
  },
  {
    name: "each entry has two postings that sum to zero, one on its user's wallet (or hold) for its coins",
    sql: `SELECT e.id, count(p.account_id)::text AS postings, COALESCE(sum(p.amount), 0)::text AS total,
                 count(*) FILTER (
                   WHERE a.kind = ${USER_SIDE} AND a.partner_id = e.partner_id AND a.user_id = e.user_id
                     AND p.amount = CASE e.debit_or_credit WHEN 'CR' THEN e.coins ELSE -e.coins END
                 )::text AS user_postings
            FROM ledger_entries e
            LEFT JOIN postings p ON p.entry_id = e.id
            LEFT JOIN accounts a ON a.id = p.account_id
           GROUP BY e.id
          HAVING count(p.account_id) <> 2 OR COALESCE(sum(p.amount), 0) <> 0
              OR count(*) FILTER (
                   WHERE a.kind = ${USER_SIDE} AND a.partner_id = e.partner_id AND a.user_id = e.user_id
                     AND p.amount = CASE e.debit_or_credit WHEN 'CR' THEN e.coins ELSE -e.coins END
                 ) <> 1`,
    describe: (r) =>
      `entry ${r.id}: ${r.postings} postings summing to ${r.total}, ${r.user_postings} matching its user's account`,
  },
  // The foreign keys of postings and idempotency keys were dropped from the transfer path (migration
  // 0010): these checks hold their references instead.
  {
    name: 'every posting refers to a ledger entry and an account',
    sql: `SELECT p.entry_id, p.account_id::text FROM postings p
           WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = p.entry_id)
              OR NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = p.account_id)`,
    describe: (r) =>
      `posting of entry ${r.entry_id} on account ${r.account_id}: the entry or the account does not exist`,
  },
  {
    name: 'every idempotency key refers to a ledger entry',
    sql: `SELECT k.partner_id, k.key, k.entry_id FROM idempotency_keys k
           WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = k.entry_id)`,
    describe: (r) =>
      `key ${JSON.stringify(r.key)} of partner ${r.partner_id} answers entry ${r.entry_id}, which does not exist`,
  },
  {
    name: "each entry's balance_after is its user's running sum",
    // Entries on the hold (pending transfers held and released) leave the wallet as it was.
    sql: `SELECT id, balance_after::text, running::text FROM (
            SELECT e.id, e.balance_after,
                   sum(CASE WHEN ${USER_SIDE} = 'hold' THEN 0 WHEN e.debit_or_credit = 'CR' THEN e.coins ELSE -e.coins END)
                     OVER (PARTITION BY e.partner_id, e.user_id ORDER BY e.seq) AS running
              FROM ledger_entries e) x
           WHERE balance_after IS DISTINCT FROM running`,
    describe: (r) => `entry ${r.id}: balance_after ${r.balance_after} but the running sum is ${r.running}`,
  },
  {
    name: "a partner's issued minus redeemed and expired is what its users hold",
    sql: `SELECT partner_id, (sum(issued) - sum(redeemed) - sum(expired))::text AS net, (-sum(balance))::text AS outstanding
            FROM accounts WHERE kind = 'partner' GROUP BY partner_id
          HAVING sum(issued) - sum(redeemed) - sum(expired) <> -sum(balance)`,
    describe: (r) =>
      `partner ${r.partner_id}: issued − redeemed − expired is ${r.net}, its users hold ${r.outstanding}`,
  },
  {
    name: 'each reversal mirrors its original',
    sql: `SELECT o.id AS original, v.id AS reversal FROM ledger_reversals r
            JOIN ledger_entries o ON o.id = r.original_id JOIN ledger_entries v ON v.id = r.reversal_id
           WHERE v.transaction_type <> 'reversal' OR o.transaction_type = 'reversal'
              OR v.partner_id <> o.partner_id OR v.user_id <> o.user_id OR v.coins <> o.coins
              OR v.debit_or_credit = o.debit_or_credit OR v.seq < o.seq`,
    describe: (r) => `reversal ${r.reversal} does not mirror entry ${r.original}`,
  },
  ...PENDING_CHECKS,
  ...LOT_CHECKS,
];

/**
 * Checks the ledger's invariants on one consistent snapshot (REPEATABLE READ), so transfers running
 * meanwhile cannot show up as half-written.
 */
export async function verifyLedger(client: pg.ClientBase): Promise<LedgerReport> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const violations: string[] = [];
    for (const check of CHECKS) {
      const { rows } = await client.query(check.sql);
      for (const row of rows) violations.push(`${check.name}: ${check.describe(row)}`);
    }
    const sealed = await verifyChains(client, violations);
    const { rows } = await client.query(`
      SELECT (SELECT count(DISTINCT partner_id) FROM accounts)::int AS partners,
             (SELECT count(*) FROM accounts)::int AS accounts,
             (SELECT count(*) FROM ledger_entries)::int AS entries,
             (SELECT COALESCE(sum(balance), 0) FROM accounts WHERE kind = 'user')::text AS coins,
             (SELECT COALESCE(sum(balance), 0) FROM accounts WHERE kind = 'hold')::text AS held,
             (SELECT count(*) FROM pending_transfers WHERE status = 'pending')::int AS pending,
             (SELECT COALESCE(sum(remaining), 0) FROM credit_lots)::text AS lots,
             (SELECT COALESCE(sum(expired), 0) FROM accounts WHERE kind = 'partner')::text AS expired,
             (SELECT count(*) FROM ledger_unsealed)::int AS unsealed`);
    return {
      partners: rows[0].partners,
      accounts: rows[0].accounts,
      entries: rows[0].entries,
      coinsInWallets: rows[0].coins,
      coinsHeld: rows[0].held,
      pendingTransfers: rows[0].pending,
      coinsInLots: rows[0].lots,
      coinsExpired: rows[0].expired,
      violations,
      sealed,
      unsealed: rows[0].unsealed,
    };
  } finally {
    await client.query('COMMIT');
  }
}
