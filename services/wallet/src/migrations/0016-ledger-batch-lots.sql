-- The wallet's batch function, whole: `wallet_apply_ledger_batch`, which every transfer, reversal,
-- pending-transfer change and expiry goes through (domain/ledger/transfer-batcher.ts calls it). As
-- 0014's, plus credit lots (0015): a credit with a validity (the request's, a rule's or the partner's
-- default: the wallet puts it in the item) opens a lot; a debit of a user with open lots expires those
-- due, then spends from the lots that expire first; a reversal of a debit gives its lots back; an
-- `expire_lots` item (the expiry job) expires a user's due lots (done, or skipped if none was due).
-- A user without lots pays a few `IF`s per item (a debit's UPDATE returns `has_lots`); see
-- docs/decisions/2026-11-28-credit-lots-and-expiry.md. Answers `{item, outcome, entry}` per item, as
-- 0014's (outcomes there and in 0013); events go to the outbox in the same transaction.
--
-- Locking order, one for every transaction (no cycle, so no deadlock; the hottest rows last):
--   1. `wallet_treasuries` rows of the partners with an issuance limit the batch issues to, in partner
--      order (FOR UPDATE): the room under the limit is exact;
--   2. the ledger entries the batch reverses, in id order (FOR UPDATE): each reversed at most once;
--   3. the pending transfers the batch resolves, in id order (FOR UPDATE): each resolved once;
--   4. per user, in (partner, user, item) order: the user's wallet (`accounts` kind user: INSERT … ON
--      CONFLICT for coins in, UPDATE … WHERE balance >= coins for coins out, SELECT … FOR UPDATE for a
--      pending or expire_lots item); then the user's `credit_lots`, changed only under that wallet lock
--      (the warning job locks unwarned lots with SKIP LOCKED and waits for nothing after); then the
--      user's hold (kind hold);
--   5. the partner's issuance shards (kind partner), each updated once at the end, in account id
--      order, from the summed deltas; one shard per batch (`use_shard`). Key locks: only tried.
--
-- A lot expiring while it is spent: the debit, holding the wallet lock, expires every lot due at that
-- instant (expiry entries before the debit's, in seq and balanceAfter), then spends only what is left,
-- or is insufficient (the expiry stands). The job's item then finds nothing due: each lot expires once.
-- Plain items' rows: one INSERT per table after the loop (0008); pending, lot, expiry rows as they go.
CREATE OR REPLACE FUNCTION wallet_apply_ledger_batch(batch jsonb, use_shard integer, transfer_subject text, reversal_subject text)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  t wallet_batch_item;
  pending jsonb;
  lots jsonb;
  expired_deltas jsonb := '{}'::jsonb;
  expired_now numeric(20, 2);
  lot_end timestamptz;
  lotted boolean;
  shard_key text[];
  stored record;
  d record;
  tr record;
  entry ledger_entries;
  original ledger_entries;
  outcome text;
  wallet_id bigint;
  wallet_balance numeric(20, 2);
  partner_account bigint;
  signed numeric(20, 2);
  event_id uuid;
  room jsonb := '{}'::jsonb;
  partner_deltas jsonb := '{}'::jsonb;
  results jsonb[] := '{}';
  entry_seq regclass := pg_get_serial_sequence('ledger_entries', 'seq')::regclass;
  entries ledger_entries[] := '{}';
  posting_entries uuid[] := '{}'; posting_accounts bigint[] := '{}'; posting_amounts numeric[] := '{}';
  reversed uuid[] := '{}'; reversals uuid[] := '{}'; reasons text[] := '{}';
  event_ids uuid[] := '{}';
  event_subjects text[] := '{}';
  event_payloads jsonb[] := '{}';
  event_traces jsonb[] := '{}';
  key_partners uuid[] := '{}';
  keys text[] := '{}';
  key_hashes text[] := '{}';
  key_entries uuid[] := '{}';
BEGIN
  FOR tr IN
    SELECT w.partner_id, w.issuance_limit FROM wallet_treasuries w
     WHERE w.issuance_limit IS NOT NULL
       AND w.partner_id IN (SELECT (x ->> 'partner_id')::uuid FROM jsonb_array_elements(batch) x
                             WHERE x ->> 'direction' = 'to_user' AND x ->> 'reverses' IS NULL)
     ORDER BY w.partner_id FOR UPDATE
  LOOP
    room := jsonb_set(room, ARRAY[tr.partner_id::text], to_jsonb(tr.issuance_limit + (
      SELECT COALESCE(sum(a.balance), 0) FROM accounts a WHERE a.partner_id = tr.partner_id AND a.kind = 'partner')));
  END LOOP;

  PERFORM 1 FROM ledger_entries e
   WHERE e.id IN (SELECT (x ->> 'reverses')::uuid FROM jsonb_array_elements(batch) x WHERE x ->> 'reverses' IS NOT NULL)
   ORDER BY e.id FOR UPDATE;

  PERFORM 1 FROM pending_transfers p
   WHERE p.id IN (SELECT (x ->> 'pending_id')::uuid FROM jsonb_array_elements(batch) x WHERE x ->> 'pending_id' IS NOT NULL)
   ORDER BY p.id FOR UPDATE;

  FOR t IN
    SELECT x.* FROM jsonb_populate_recordset(NULL::wallet_batch_item, batch) x
     ORDER BY x.partner_id, x.user_id, x.item
  LOOP
    outcome := NULL;
    entry := NULL;
    pending := NULL;
    expired_now := 0;
    lot_end := NULL;

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

    IF outcome IS NULL AND t.op = 'expire_lots' THEN
      lots := wallet_lot_expire_item(t, use_shard);
      outcome := lots ->> 'outcome';
      expired_now := (lots ->> 'expired')::numeric;
      partner_account := (lots ->> 'shard')::bigint;
      entry := jsonb_populate_record(NULL::ledger_entries, lots -> 'entry');
    END IF;

    IF outcome IS NULL AND t.op IS NOT NULL THEN
      IF t.op = 'hold' AND room ? t.partner_id::text AND t.coins > (room ->> t.partner_id::text)::numeric THEN
        outcome := 'limit_reached';
      ELSE
        pending := wallet_apply_pending(t, use_shard, transfer_subject);
        outcome := pending ->> 'outcome';
        IF pending ? 'shard' THEN
          shard_key := ARRAY[pending ->> 'shard'];
          partner_deltas := jsonb_set(partner_deltas, shard_key, jsonb_build_object(
            'balance', COALESCE((partner_deltas #>> (shard_key || 'balance'::text))::numeric, 0) + (pending ->> 'balance')::numeric,
            'issued', COALESCE((partner_deltas #>> (shard_key || 'issued'::text))::numeric, 0) + (pending ->> 'issued')::numeric,
            'redeemed', COALESCE((partner_deltas #>> (shard_key || 'redeemed'::text))::numeric, 0)));
          IF room ? t.partner_id::text THEN
            room := jsonb_set(room, ARRAY[t.partner_id::text],
                              to_jsonb((room ->> t.partner_id::text)::numeric + (pending ->> 'balance')::numeric));
          END IF;
        END IF;
        IF outcome = 'done' THEN
          entry := jsonb_populate_record(NULL::ledger_entries, pending -> 'entry');
          IF t.idempotency_key IS NOT NULL THEN
            key_partners := key_partners || t.partner_id; keys := keys || t.idempotency_key;
            key_hashes := key_hashes || t.request_hash; key_entries := key_entries || entry.id;
          END IF;
        END IF;
      END IF;
    END IF;

    IF outcome IS NULL AND t.reverses IS NOT NULL THEN
      IF t.reverses = ANY (reversed) OR EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = t.reverses) THEN
        outcome := 'already_reversed';
      END IF;
    END IF;

    IF outcome IS NULL AND room ? t.partner_id::text THEN
      IF t.direction = 'to_user' AND t.reverses IS NULL AND t.coins > (room ->> t.partner_id::text)::numeric THEN
        outcome := 'limit_reached';
      END IF;
    END IF;

    IF outcome IS NULL THEN
      SELECT a.id INTO partner_account FROM accounts a
       WHERE a.partner_id = t.partner_id AND a.kind = 'partner' AND a.shard = use_shard;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'partner % has no issuance account shard %', t.partner_id, use_shard;
      END IF;
      entry.id := gen_random_uuid();
      IF t.direction = 'to_user' THEN
        INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.partner_id, 'user', t.user_id, t.coins)
          ON CONFLICT (partner_id, user_id) WHERE kind = 'user'
          DO UPDATE SET balance = a.balance + EXCLUDED.balance, updated_at = now()
          RETURNING a.id, a.balance INTO wallet_id, wallet_balance;
        signed := t.coins;
        IF t.validity IS NOT NULL OR t.reverses IS NOT NULL THEN
          lot_end := wallet_lot_credit(t, entry.id, wallet_id);
        END IF;
      ELSE
        UPDATE accounts a SET balance = a.balance - t.coins, updated_at = now()
         WHERE a.partner_id = t.partner_id AND a.kind = 'user' AND a.user_id = t.user_id AND a.balance >= t.coins
         RETURNING a.id, a.balance, a.has_lots INTO wallet_id, wallet_balance, lotted;
        IF NOT FOUND THEN
          outcome := 'insufficient';
        -- Read under the wallet's lock (has_lots is set with a lot, under it); lots read after it.
        ELSIF lotted THEN
          lots := wallet_lot_debit(t, entry.id, wallet_id, partner_account, wallet_balance);
          expired_now := (lots ->> 'expired')::numeric;
          wallet_balance := (lots ->> 'balance')::numeric;
          outcome := CASE WHEN (lots ->> 'insufficient')::boolean THEN 'insufficient' END;
        END IF;
        signed := -t.coins;
      END IF;
    END IF;

    IF expired_now > 0 THEN
      partner_deltas := jsonb_set(partner_deltas, ARRAY[partner_account::text], jsonb_build_object(
        'balance', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'balance'])::numeric, 0) + expired_now,
        'issued', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'issued'])::numeric, 0),
        'redeemed', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'redeemed'])::numeric, 0)));
      expired_deltas := jsonb_set(expired_deltas, ARRAY[partner_account::text],
        to_jsonb(COALESCE((expired_deltas ->> partner_account::text)::numeric, 0) + expired_now));
      IF room ? t.partner_id::text THEN
        room := jsonb_set(room, ARRAY[t.partner_id::text], to_jsonb((room ->> t.partner_id::text)::numeric + expired_now));
      END IF;
    END IF;

    IF outcome IS NULL THEN
      IF room ? t.partner_id::text THEN
        room := jsonb_set(room, ARRAY[t.partner_id::text], to_jsonb((room ->> t.partner_id::text)::numeric - signed));
      END IF;
      entry.seq := nextval(entry_seq);
      entry.partner_id := t.partner_id; entry.user_id := t.user_id;
      entry.transaction_type := CASE WHEN t.reverses IS NOT NULL THEN 'reversal'
        WHEN t.direction = 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END;
      entry.debit_or_credit := CASE t.direction WHEN 'to_user' THEN 'CR' ELSE 'DE' END;
      entry.coins := t.coins; entry.narration := t.narration;
      entry.from_party := t.from_party; entry.to_party := t.to_party;
      entry.created_at := clock_timestamp(); entry.updated_at := entry.created_at;
      entry.balance_after := wallet_balance;
      entry.rule_reward := COALESCE(t.rule_reward, false);
      entries := entries || entry;
      posting_entries := posting_entries || entry.id || entry.id;
      posting_accounts := posting_accounts || wallet_id || partner_account;
      posting_amounts := posting_amounts || signed || (-signed);
      -- issued and redeemed count net of reversals: reversing a credit takes it off issued,
      -- reversing a debit takes it off redeemed.
      partner_deltas := jsonb_set(partner_deltas, ARRAY[partner_account::text], jsonb_build_object(
        'balance', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'balance'])::numeric, 0) - signed,
        'issued', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'issued'])::numeric, 0)
          + CASE WHEN t.reverses IS NULL AND signed > 0 THEN t.coins
                 WHEN t.reverses IS NOT NULL AND signed < 0 THEN -t.coins ELSE 0 END,
        'redeemed', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'redeemed'])::numeric, 0)
          + CASE WHEN t.reverses IS NULL AND signed < 0 THEN t.coins
                 WHEN t.reverses IS NOT NULL AND signed > 0 THEN -t.coins ELSE 0 END));
      event_id := gen_random_uuid();
      IF t.reverses IS NULL THEN
        event_ids := event_ids || event_id; event_subjects := event_subjects || transfer_subject;
        event_payloads := event_payloads || jsonb_build_object(
          'eventId', event_id, 'partnerId', entry.partner_id, 'ledgerEntryId', entry.id, 'userId', entry.user_id,
          'transactionType', entry.transaction_type, 'debitOrCredit', entry.debit_or_credit, 'coins', entry.coins::text,
          'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
        event_traces := event_traces || COALESCE(t.trace_context, '{}'::jsonb);
      ELSE
        reversed := reversed || t.reverses; reversals := reversals || entry.id; reasons := reasons || t.reason;
        SELECT * INTO original FROM ledger_entries WHERE id = t.reverses;
        event_ids := event_ids || event_id; event_subjects := event_subjects || reversal_subject;
        event_payloads := event_payloads || jsonb_build_object(
          'eventId', event_id, 'partnerId', entry.partner_id, 'ledgerEntryId', entry.id, 'userId', entry.user_id,
          'debitOrCredit', entry.debit_or_credit, 'coins', entry.coins::text,
          'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'reversedEntryId', original.id, 'reversedTransactionType', original.transaction_type,
          'reversedRuleReward', original.rule_reward,
          'reversedCreatedAt', to_char(original.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
        event_traces := event_traces || COALESCE(t.trace_context, '{}'::jsonb);
      END IF;
      IF t.idempotency_key IS NOT NULL THEN
        key_partners := key_partners || t.partner_id; keys := keys || t.idempotency_key;
        key_hashes := key_hashes || t.request_hash; key_entries := key_entries || entry.id;
      END IF;
      outcome := 'done';
    END IF;

    results := results || jsonb_build_object(
      'item', t.item, 'outcome', outcome, 'entry', CASE
        WHEN entry.id IS NULL THEN NULL
        WHEN outcome = 'replay' THEN to_jsonb(entry) || jsonb_build_object(
          'reversed', EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = entry.id))
        ELSE to_jsonb(entry) END);
    IF lot_end IS NOT NULL THEN
      results[array_upper(results, 1)] := jsonb_set(results[array_upper(results, 1)], '{entry,expires_at}', to_jsonb(lot_end));
    END IF;
    IF pending ? 'released' THEN
      results[array_upper(results, 1)] := results[array_upper(results, 1)] || jsonb_build_object('released', pending -> 'released');
    END IF;
  END LOOP;

  INSERT INTO ledger_entries (id, seq, partner_id, user_id, transaction_type, debit_or_credit, coins, narration,
                              from_party, to_party, created_at, updated_at, balance_after, rule_reward)
    OVERRIDING SYSTEM VALUE
    SELECT e.id, e.seq, e.partner_id, e.user_id, e.transaction_type, e.debit_or_credit, e.coins, e.narration,
           e.from_party, e.to_party, e.created_at, e.updated_at, e.balance_after, e.rule_reward
      FROM unnest(entries) AS e;
  INSERT INTO postings (entry_id, account_id, amount)
    SELECT * FROM unnest(posting_entries, posting_accounts, posting_amounts);
  INSERT INTO ledger_reversals (original_id, reversal_id, reason) SELECT * FROM unnest(reversed, reversals, reasons);
  INSERT INTO outbox (id, subject, payload, trace_context)
    SELECT * FROM unnest(event_ids, event_subjects, event_payloads, event_traces);
  INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id)
    SELECT * FROM unnest(key_partners, keys, key_hashes, key_entries);

  FOR d IN SELECT key::bigint AS account_id, value AS delta FROM jsonb_each(partner_deltas) ORDER BY 1
  LOOP
    UPDATE accounts SET balance = balance + (d.delta ->> 'balance')::numeric,
                        issued = issued + (d.delta ->> 'issued')::numeric,
                        redeemed = redeemed + (d.delta ->> 'redeemed')::numeric,
                        expired = expired + COALESCE((expired_deltas ->> d.account_id::text)::numeric, 0),
                        updated_at = now()
     WHERE id = d.account_id;
  END LOOP;

  RETURN to_jsonb(results);
END
$fn$;
