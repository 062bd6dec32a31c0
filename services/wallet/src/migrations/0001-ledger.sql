-- The double-entry ledger. Every transfer is one ledger entry with two postings (the user's wallet and
-- one shard of the partner's issuance account) that sum to zero; account balances are kept in step
-- with their postings in the same transaction. User wallets may never go negative.
--
-- `wallet_apply_transfers` applies a batch of transfers in the caller's one statement (one transaction,
-- one commit), its items under release 1.0.0's one-letter keys. Items are taken in (partner, user)
-- order and every partner shard is updated once, at the end, in id order: every transaction locks
-- rows in the same order, so batches never deadlock, and the hot partner row is held only for the
-- last moment of the transaction.
--
-- Idempotency: an item with a key takes a transaction-scoped advisory lock on (partner, key). If
-- another transaction holds it, that request is still running (in_progress). Once held, a stored key
-- answers replay (same request hash) or conflict; otherwise the transfer runs and stores the key in
-- the same transaction. A crash rolls everything back and frees the lock, so a retry runs the
-- transfer exactly once. The outbox row follows libs/events' outbox contract (its payload carries
-- eventId, the row's id).

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
      );
CREATE UNIQUE INDEX accounts_user ON accounts (partner_id, user_id) WHERE kind = 'user';
CREATE UNIQUE INDEX accounts_partner ON accounts (partner_id, shard) WHERE kind = 'partner';

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
      );
CREATE INDEX ledger_entries_user ON ledger_entries (partner_id, user_id, seq DESC);

      CREATE TABLE postings (
        entry_id uuid NOT NULL REFERENCES ledger_entries (id),
        account_id bigint NOT NULL REFERENCES accounts (id),
        amount numeric(20, 2) NOT NULL CHECK (amount <> 0),
        PRIMARY KEY (entry_id, account_id)
      );
CREATE INDEX postings_account ON postings (account_id);

      CREATE TABLE idempotency_keys (
        partner_id uuid NOT NULL,
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
        request_hash text NOT NULL,
        entry_id uuid NOT NULL REFERENCES ledger_entries (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, key)
      );
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE FUNCTION wallet_apply_transfers(batch jsonb, use_shard integer, event_subject text) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  t record;
  stored record;
  d record;
  entry ledger_entries;
  outcome text;
  wallet_id bigint;
  partner_account bigint;
  signed numeric(20, 2);
  event_id uuid;
  partner_deltas jsonb := '{}'::jsonb;
  results jsonb := '[]'::jsonb;
BEGIN
  FOR t IN
    SELECT x.* FROM jsonb_to_recordset(batch)
      AS x(i integer, p uuid, u uuid, dir text, c numeric, n text, k text, h text, fp jsonb, tp jsonb, tc jsonb)
     ORDER BY x.p, x.u, x.i
  LOOP
    outcome := NULL;
    entry := NULL;

    IF t.k IS NOT NULL THEN
      IF NOT pg_try_advisory_xact_lock(hashtextextended(t.p::text || '/' || t.k, 0)) THEN
        outcome := 'in_progress';
      ELSE
        SELECT request_hash, entry_id INTO stored FROM idempotency_keys WHERE partner_id = t.p AND key = t.k;
        IF FOUND THEN
          IF stored.request_hash = t.h THEN
            outcome := 'replay';
            SELECT * INTO entry FROM ledger_entries WHERE id = stored.entry_id;
          ELSE
            outcome := 'conflict';
          END IF;
        END IF;
      END IF;
    END IF;

    IF outcome IS NULL THEN
      IF t.dir = 'to_user' THEN
        INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.p, 'user', t.u, t.c)
          ON CONFLICT (partner_id, user_id) WHERE kind = 'user'
          DO UPDATE SET balance = a.balance + EXCLUDED.balance, updated_at = now()
          RETURNING a.id INTO wallet_id;
        signed := t.c;
      ELSE
        UPDATE accounts a SET balance = a.balance - t.c, updated_at = now()
         WHERE a.partner_id = t.p AND a.kind = 'user' AND a.user_id = t.u AND a.balance >= t.c
         RETURNING a.id INTO wallet_id;
        IF NOT FOUND THEN
          outcome := 'insufficient';
        END IF;
        signed := -t.c;
      END IF;
    END IF;

    IF outcome IS NULL THEN
      SELECT a.id INTO partner_account FROM accounts a
       WHERE a.partner_id = t.p AND a.kind = 'partner' AND a.shard = use_shard;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'partner % has no issuance account shard %', t.p, use_shard;
      END IF;
      INSERT INTO ledger_entries
        (id, partner_id, user_id, transaction_type, debit_or_credit, coins, narration, from_party, to_party)
      VALUES (
        gen_random_uuid(), t.p, t.u,
        CASE t.dir WHEN 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END,
        CASE t.dir WHEN 'to_user' THEN 'CR' ELSE 'DE' END,
        t.c, t.n, t.fp, t.tp)
      RETURNING * INTO entry;
      INSERT INTO postings (entry_id, account_id, amount)
      VALUES (entry.id, wallet_id, signed), (entry.id, partner_account, -signed);
      partner_deltas := jsonb_set(partner_deltas, ARRAY[partner_account::text],
        to_jsonb(COALESCE((partner_deltas ->> partner_account::text)::numeric, 0) - signed));
      event_id := gen_random_uuid();
      INSERT INTO outbox (id, subject, payload, trace_context)
      VALUES (event_id, event_subject, jsonb_build_object(
        'eventId', event_id,
        'partnerId', entry.partner_id,
        'ledgerEntryId', entry.id,
        'userId', entry.user_id,
        'transactionType', entry.transaction_type,
        'debitOrCredit', entry.debit_or_credit,
        'coins', entry.coins::text,
        'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ), COALESCE(t.tc, '{}'::jsonb));
      IF t.k IS NOT NULL THEN
        INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id) VALUES (t.p, t.k, t.h, entry.id);
      END IF;
      outcome := 'done';
    END IF;

    results := results || jsonb_build_object(
      'i', t.i, 'outcome', outcome, 'entry', CASE WHEN entry.id IS NULL THEN NULL ELSE to_jsonb(entry) END);
  END LOOP;

  FOR d IN SELECT key::bigint AS account_id, value::numeric AS delta FROM jsonb_each_text(partner_deltas) ORDER BY 1
  LOOP
    UPDATE accounts SET balance = balance + d.delta, updated_at = now() WHERE id = d.account_id;
  END LOOP;

  RETURN results;
END
$fn$;
