-- The seal queue (`ledger_unsealed`, 0004) is filled once per INSERT into `ledger_entries` from the
-- statement's new rows, instead of once per entry: since 0008 a batch writes its entries in one
-- statement, and a row trigger ran a PL/pgSQL function and an INSERT, each with its executor, for
-- every entry. The queue gets the same rows in the same transaction. Replacing the trigger and
-- dropping its function is one transaction: no entry is written between them. Measured: docs/decisions/2026-11-24-wallet-batch-function-cost.md.

      CREATE FUNCTION wallet_queue_entries_for_seal() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO ledger_unsealed (entry_id, seq) SELECT id, seq FROM added_entries;
        RETURN NULL;
      END
      $fn$;
DROP TRIGGER ledger_entries_queue_for_seal ON ledger_entries;

      CREATE TRIGGER ledger_entries_queue_for_seal AFTER INSERT ON ledger_entries
        REFERENCING NEW TABLE AS added_entries
        FOR EACH STATEMENT EXECUTE FUNCTION wallet_queue_entries_for_seal();
DROP FUNCTION wallet_queue_for_seal();
