import { Migration } from '@coin/db';
import { type LedgerBatchFunction, ledgerBatchFunction } from './ledger-batch-function.ts';

/**
 * Reversals, the balance after each entry and the partner treasury (issue 16). Expand only:
 *
 * - `ledger_entries.balance_after`: the user's wallet balance right after the entry, written by the
 *   batch function from the wallet row it holds locked, so it is exact under any concurrency.
 *   Entries written before this migration get it from their user's running sum in `seq` order.
 * - `ledger_entries.rule_reward`: the entry pays a rule's reward, so reversing it also takes the
 *   points off the points leaderboard.
 * - `ledger_reversals`: original → correcting entry. Its primary key is what makes an entry
 *   reversible at most once, whatever the concurrency.
 * - `accounts.issued` / `accounts.redeemed` on the partner's shards, kept with the balance, so the
 *   treasury reads eight rows instead of the ledger.
 * - `wallet_treasuries`: a partner's issuance limit (no row or NULL: unlimited).
 * - The transaction type check admits `reversal` (same constraint name, wider).
 */
export class ReversalsTreasury extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE ledger_entries ADD COLUMN balance_after numeric(20, 2)');
    this.addSql('ALTER TABLE ledger_entries ADD COLUMN rule_reward boolean NOT NULL DEFAULT false');
    this.addSql(`
      UPDATE ledger_entries e SET balance_after = r.running
        FROM (SELECT id, sum(CASE debit_or_credit WHEN 'CR' THEN coins ELSE -coins END)
                     OVER (PARTITION BY partner_id, user_id ORDER BY seq) AS running
                FROM ledger_entries) r
       WHERE r.id = e.id`);
    this.addSql(`
      UPDATE ledger_entries e SET rule_reward = true
        FROM idempotency_keys k
       WHERE k.entry_id = e.id AND k.key LIKE 'internal:rule-reward:%'`);
    this.addSql('ALTER TABLE ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_transaction_type_check');
    this.addSql(`
      ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_transaction_type_check
        CHECK (transaction_type IN ('partner_user_transfer', 'user_partner_transfer', 'reversal'))`);
    this.addSql(`
      CREATE TABLE ledger_reversals (
        original_id uuid PRIMARY KEY REFERENCES ledger_entries (id),
        reversal_id uuid NOT NULL UNIQUE REFERENCES ledger_entries (id),
        reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql('ALTER TABLE accounts ADD COLUMN issued numeric(20, 2) NOT NULL DEFAULT 0');
    this.addSql('ALTER TABLE accounts ADD COLUMN redeemed numeric(20, 2) NOT NULL DEFAULT 0');
    this.addSql(`
      UPDATE accounts a SET issued = s.issued, redeemed = s.redeemed
        FROM (SELECT p.account_id,
                     COALESCE(sum(-p.amount) FILTER (WHERE e.debit_or_credit = 'CR'), 0) AS issued,
                     COALESCE(sum(p.amount) FILTER (WHERE e.debit_or_credit = 'DE'), 0) AS redeemed
                FROM postings p JOIN ledger_entries e ON e.id = p.entry_id
               GROUP BY p.account_id) s
       WHERE a.id = s.account_id AND a.kind = 'partner'`);
    this.addSql(`
      CREATE TABLE wallet_treasuries (
        partner_id uuid PRIMARY KEY,
        issuance_limit numeric(20, 2) CHECK (issuance_limit >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(APPLY_LEDGER_BATCH);
    this.addSql(`
      CREATE OR REPLACE FUNCTION wallet_apply_transfer_batch(batch jsonb, use_shard integer, event_subject text)
      RETURNS jsonb LANGUAGE sql AS $fn$
        SELECT wallet_apply_ledger_batch(batch, use_shard, event_subject, 'events.wallet.transferReversed')
      $fn$`);
  }
}

/**
 * `wallet_apply_transfer_batch` (0002) grown by reversals, balance_after and the issuance limit.
 * 0002's function now calls this one, so replicas of the previous release keep working during a
 * rolling upgrade and already meet the issuance limit.
 *
 * Items: 0002's fields plus `rule_reward` (boolean) and, for a reversal, `reverses` (the original
 * entry's id; `user_id`, `direction` and `coins` are the original's, read by the caller) and
 * `reason`. Outcomes: 0002's plus `already_reversed` and `limit_reached`.
 *
 * Locking order, the same in every transaction so batches never deadlock: the treasury rows of the
 * limited partners the batch issues to (partner order), the originals the batch reverses (id order),
 * user wallets (partner, user order), the partner shards (id order, at the end). A partner without a
 * limit takes no treasury lock: its batches run side by side on their shards as before.
 *
 * The issuance limit: with the partner's treasury row held, every earlier issuing batch of the
 * partner has committed, so `-sum(shard balances)` is its outstanding coins (redemptions still
 * running are not yet subtracted: the limit errs on the safe side) and the batch counts its own
 * items against the room left. Reversals are corrections and are never refused by the limit.
 */
export const LEDGER_BATCH: LedgerBatchFunction = {
  signature:
    'wallet_apply_ledger_batch(batch jsonb, use_shard integer, transfer_subject text, reversal_subject text)\nRETURNS jsonb',
  keys: 'readable',
  ledger: true,
  transferSubject: 'transfer_subject',
};
const APPLY_LEDGER_BATCH = ledgerBatchFunction(LEDGER_BATCH);
