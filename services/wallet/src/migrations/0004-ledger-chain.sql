-- A hash chain over each partner's ledger entries, sealed after commit.
--
-- - `ledger_unsealed`: every committed entry not yet in its partner's chain. A trigger fills it in
--   the transaction that writes the entry (whichever function or release writes it), so an entry is
--   queued exactly when it commits and the sealer never sees one that might still roll back.
-- - `ledger_chain`: position `chain_seq` (1, 2, … per partner), the entry, `prev_hash` and `hash`
--   (hex SHA-256, see services/wallet/src/domain/ledger/chain.ts for the canonical form).
--
-- Entries written before this migration are queued too and sealed in `seq` order.

      CREATE TABLE ledger_unsealed (
        entry_id uuid PRIMARY KEY REFERENCES ledger_entries (id),
        seq bigint NOT NULL
      );
CREATE INDEX ledger_unsealed_seq ON ledger_unsealed (seq);

      CREATE TABLE ledger_chain (
        partner_id uuid NOT NULL,
        chain_seq bigint NOT NULL,
        entry_id uuid NOT NULL UNIQUE REFERENCES ledger_entries (id),
        prev_hash text NOT NULL,
        hash text NOT NULL,
        sealed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, chain_seq)
      );

      CREATE FUNCTION wallet_queue_for_seal() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO ledger_unsealed (entry_id, seq) VALUES (NEW.id, NEW.seq);
        RETURN NULL;
      END
      $fn$;

      CREATE TRIGGER ledger_entries_queue_for_seal AFTER INSERT ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION wallet_queue_for_seal();
INSERT INTO ledger_unsealed (entry_id, seq) SELECT id, seq FROM ledger_entries;
