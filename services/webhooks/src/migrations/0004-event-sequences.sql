-- Each partner's deliveries are numbered 1, 2, 3… (the body's `sequence`): `partner_sequences` holds
-- the last number given, raised in the transaction that records the deliveries, so a number is
-- never given twice. Expand only: rows of earlier releases keep a NULL sequence, and no constraint
-- is added to `deliveries` that an earlier release's insert could trip on.

      CREATE TABLE partner_sequences (
        partner_id uuid PRIMARY KEY,
        last_sequence bigint NOT NULL CHECK (last_sequence > 0)
      );
ALTER TABLE deliveries ADD COLUMN sequence bigint;
