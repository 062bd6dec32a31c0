import { Migration } from '@coin/db';

/**
 * The foreign keys of the rows every transfer writes besides its entry (its two postings, its
 * idempotency key, its row in the seal queue) are dropped. Each ran a trigger and a
 * `SELECT … FOR KEY SHARE` per row, six per transfer, in the transaction of every transfer: a batch
 * of 32 took 5.3–5.7 ms without them against 6.3–6.4 ms with them (pgbench, one connection, the
 * function alone, three alternating runs).
 *
 * Only the batch function writes these rows, from the entry and the accounts it has just written or
 * read, and nothing deletes an entry or an account. The ledger verifier (`ledger/verify.ts`) checks
 * that every posting refers to an entry and an account and every key to an entry. A queued id without
 * an entry is harmless: the sealer deletes it and finds nothing to seal. A sealed entry still cannot
 * be deleted, as `ledger_chain` keeps its foreign key. Dropping a constraint does not stop the previous
 * release's code, which writes the same rows.
 */
export class ReferencesVerified extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'ALTER TABLE postings DROP CONSTRAINT postings_entry_id_fkey, DROP CONSTRAINT postings_account_id_fkey',
    );
    this.addSql('ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_entry_id_fkey');
    this.addSql('ALTER TABLE ledger_unsealed DROP CONSTRAINT ledger_unsealed_entry_id_fkey');
  }
}
