import { Migration } from '@coin/db';
import { ledgerBatchFunction } from './ledger-batch-function.ts';

/**
 * Double-entry ledger. Every transfer is one ledger entry with two postings (the user's wallet and
 * one shard of the partner's issuance account) that sum to zero; account balances are kept in step
 * with their postings in the same transaction. User wallets may never go negative.
 */
export class Ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE accounts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        partner_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('partner', 'user')),
        user_id uuid,
        shard integer,
        balance numeric(20, 2) NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_wallet_not_negative CHECK (kind <> 'user' OR balance >= 0),
        CHECK ((kind = 'user') = (user_id IS NOT NULL)),
        CHECK ((kind = 'partner') = (shard IS NOT NULL))
      )`);
    this.addSql("CREATE UNIQUE INDEX accounts_user ON accounts (partner_id, user_id) WHERE kind = 'user'");
    this.addSql(
      "CREATE UNIQUE INDEX accounts_partner ON accounts (partner_id, shard) WHERE kind = 'partner'",
    );
    this.addSql(`
      CREATE TABLE ledger_entries (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        partner_id uuid NOT NULL,
        user_id uuid NOT NULL,
        transaction_type text NOT NULL
          CHECK (transaction_type IN ('partner_user_transfer', 'user_partner_transfer')),
        debit_or_credit text NOT NULL CHECK (debit_or_credit IN ('CR', 'DE')),
        coins numeric(20, 2) NOT NULL CHECK (coins > 0),
        narration text NOT NULL,
        from_party jsonb NOT NULL,
        to_party jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    this.addSql('CREATE INDEX ledger_entries_user ON ledger_entries (partner_id, user_id, seq DESC)');
    this.addSql(`
      CREATE TABLE postings (
        entry_id uuid NOT NULL REFERENCES ledger_entries (id),
        account_id bigint NOT NULL REFERENCES accounts (id),
        amount numeric(20, 2) NOT NULL CHECK (amount <> 0),
        PRIMARY KEY (entry_id, account_id)
      )`);
    this.addSql('CREATE INDEX postings_account ON postings (account_id)');
    this.addSql(`
      CREATE TABLE idempotency_keys (
        partner_id uuid NOT NULL,
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
        request_hash text NOT NULL,
        entry_id uuid NOT NULL REFERENCES ledger_entries (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, key)
      )`);
    this.addSql('CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)');
    this.addSql(APPLY_TRANSFERS);
  }
}

/**
 * Applies a batch of transfers in the caller's single statement (one transaction, one commit).
 * Items are taken in (partner, user) order and every partner shard is updated once, at the end,
 * in id order: every transaction locks rows in the same global order, so batches never deadlock,
 * and the hot partner row is held only for the last moment of the transaction.
 *
 * Idempotency: an item with a key takes a transaction-scoped advisory lock on (partner, key). If
 * another transaction holds it, that request is still running (in_progress). Once held, a stored
 * key answers replay (same request hash) or conflict; otherwise the transfer runs and stores the
 * key in the same transaction. A crash rolls everything back and frees the lock, so a retry runs
 * the transfer exactly once.
 *
 * The outbox row follows libs/events' outbox contract (payload carries eventId = row id).
 */
const APPLY_TRANSFERS = ledgerBatchFunction({
  signature: 'wallet_apply_transfers(batch jsonb, use_shard integer, event_subject text) RETURNS jsonb',
  keys: 'one-letter',
  ledger: false,
  transferSubject: 'event_subject',
});
