-- The foreign keys of the rows every transfer writes besides its entry (its two postings, its
-- idempotency key, its row in the seal queue) are dropped. Each ran a trigger and a
-- `SELECT … FOR KEY SHARE` per row, six per transfer, in the transaction of every transfer
-- (measured: docs/decisions/2026-11-24-ledger-foreign-keys-dropped.md).
--
-- Only the batch function writes these rows, from the entry and the accounts it has just written or
-- read, and nothing deletes an entry or an account. The ledger verifier (`domain/ledger/verify.ts`) checks
-- that every posting refers to an entry and an account and every key to an entry. A queued id without
-- an entry is harmless: the sealer deletes it and finds nothing to seal. A sealed entry still cannot
-- be deleted, as `ledger_chain` keeps its foreign key. Dropping a constraint does not stop the previous
-- release's code, which writes the same rows.
ALTER TABLE postings DROP CONSTRAINT postings_entry_id_fkey, DROP CONSTRAINT postings_account_id_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_entry_id_fkey;
ALTER TABLE ledger_unsealed DROP CONSTRAINT ledger_unsealed_entry_id_fkey;
