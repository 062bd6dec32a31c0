-- `wallet_apply_transfer_batch`: 0001's function with readable names for the batch items and the
-- results: `{item, partner_id, user_id, direction, coins, narration, idempotency_key, request_hash,
-- from_party, to_party, trace_context}` in, `{item, outcome, entry}` out. Same locking order,
-- idempotency and outbox row as 0001.
--
-- A new function beside the old one rather than a replacement (expand, then contract): replicas of
-- the previous release keep calling `wallet_apply_transfers` with one-letter keys during a rolling
-- upgrade.
--
-- The outbox row is the event `events.wallet.transferCompleted`: its shape is
-- `transferCompletedEvent` in libs/contracts/src/events.ts, and services/wallet/test/ parses every
-- row the batch function writes with that schema. It is built here, in the same statement, so a
-- transfer stays one round trip.

CREATE FUNCTION wallet_apply_transfer_batch(batch jsonb, use_shard integer, event_subject text) RETURNS jsonb
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
      AS x(item integer, partner_id uuid, user_id uuid, direction text, coins numeric, narration text,
          idempotency_key text, request_hash text, from_party jsonb, to_party jsonb, trace_context jsonb)
     ORDER BY x.partner_id, x.user_id, x.item
  LOOP
    outcome := NULL;
    entry := NULL;

    IF t.idempotency_key IS NOT NULL THEN
      IF NOT pg_try_advisory_xact_lock(hashtextextended(t.partner_id::text || '/' || t.idempotency_key, 0)) THEN
        outcome := 'in_progress';
      ELSE
        SELECT request_hash, entry_id INTO stored FROM idempotency_keys WHERE partner_id = t.partner_id AND key = t.idempotency_key;
        IF FOUND THEN
          IF stored.request_hash = t.request_hash THEN
            outcome := 'replay';
            SELECT * INTO entry FROM ledger_entries WHERE id = stored.entry_id;
          ELSE
            outcome := 'conflict';
          END IF;
        END IF;
      END IF;
    END IF;

    IF outcome IS NULL THEN
      IF t.direction = 'to_user' THEN
        INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.partner_id, 'user', t.user_id, t.coins)
          ON CONFLICT (partner_id, user_id) WHERE kind = 'user'
          DO UPDATE SET balance = a.balance + EXCLUDED.balance, updated_at = now()
          RETURNING a.id INTO wallet_id;
        signed := t.coins;
      ELSE
        UPDATE accounts a SET balance = a.balance - t.coins, updated_at = now()
         WHERE a.partner_id = t.partner_id AND a.kind = 'user' AND a.user_id = t.user_id AND a.balance >= t.coins
         RETURNING a.id INTO wallet_id;
        IF NOT FOUND THEN
          outcome := 'insufficient';
        END IF;
        signed := -t.coins;
      END IF;
    END IF;

    IF outcome IS NULL THEN
      SELECT a.id INTO partner_account FROM accounts a
       WHERE a.partner_id = t.partner_id AND a.kind = 'partner' AND a.shard = use_shard;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'partner % has no issuance account shard %', t.partner_id, use_shard;
      END IF;
      INSERT INTO ledger_entries
        (id, partner_id, user_id, transaction_type, debit_or_credit, coins, narration, from_party, to_party)
      VALUES (
        gen_random_uuid(), t.partner_id, t.user_id,
        CASE t.direction WHEN 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END,
        CASE t.direction WHEN 'to_user' THEN 'CR' ELSE 'DE' END,
        t.coins, t.narration, t.from_party, t.to_party)
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
      ), COALESCE(t.trace_context, '{}'::jsonb));
      IF t.idempotency_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id) VALUES (t.partner_id, t.idempotency_key, t.request_hash, entry.id);
      END IF;
      outcome := 'done';
    END IF;

    results := results || jsonb_build_object(
      'item', t.item, 'outcome', outcome, 'entry', CASE WHEN entry.id IS NULL THEN NULL ELSE to_jsonb(entry) END);
  END LOOP;

  FOR d IN SELECT key::bigint AS account_id, value::numeric AS delta FROM jsonb_each_text(partner_deltas) ORDER BY 1
  LOOP
    UPDATE accounts SET balance = balance + d.delta, updated_at = now() WHERE id = d.account_id;
  END LOOP;

  RETURN results;
END
$fn$;
