-- The wallet's batch function, whole: `wallet_apply_ledger_batch`, the one function every transfer,
-- reversal and pending-transfer change goes through (services/wallet/src/ledger/transfer-batcher.ts
-- calls it). Same signature, rules and answers as 0012's for the items it knew; it adds pending items
-- (`op`: hold, post, void, expire), which it hands to 0013's `wallet_apply_pending`. A plain transfer
-- or reversal pays for them one more lock statement per batch (which finds no pending rows) and an
-- `IF` per item; measured: docs/decisions/2026-11-27-pending-transfers-in-the-batch-function.md.
--
-- One call applies a batch of items in the caller's transaction and answers `{item, outcome, entry}`
-- for each, outcome one of done, replay, conflict, in_progress, insufficient, already_reversed or
-- limit_reached, and for pending items also not_found, already_posted, already_voided,
-- already_expired, expired, exceeds or skipped (0013 says when). Events go to the outbox in the same
-- transaction; an idempotency key is stored with the entry it answers.
--
-- Locking order. Every transaction takes its row locks in this one order, so two batches never wait
-- on each other in a cycle (no deadlock), and the hottest rows are held for the shortest time:
--   1. the treasury rows (`wallet_treasuries`) of the partners with an issuance limit that the batch
--      issues coins to (transfers to users and holds), in partner order (FOR UPDATE); a partner without
--      a limit takes none. Holding it, every earlier issuing batch of the partner has committed, so the
--      room left under the limit is exact;
--   2. the ledger entries the batch reverses, in id order (FOR UPDATE), so an entry is reversed at
--      most once (the `ledger_reversals` primary key is the last word);
--   3. the pending transfers the batch posts, voids or expires, in id order (FOR UPDATE), so each
--      moves out of pending once: whoever comes second sees it resolved;
--   4. per user, as the items are taken in (partner, user, item) order: the user's wallet (`accounts`,
--      kind user: an INSERT … ON CONFLICT for coins in, an UPDATE … WHERE balance >= coins for coins
--      out, a SELECT … FOR UPDATE for a pending item), then the user's hold (kind hold);
--   5. the partner's issuance shards (`accounts`, kind partner), each updated once at the end in
--      account id order from the deltas the loop summed, so the partner's hot row is held only for
--      the last moment of the transaction; each batch uses one shard (`use_shard`, chosen at random
--      by the caller), so concurrent batches of one partner mostly lock different rows.
-- An idempotency key's advisory lock is only tried (pg_try_advisory_xact_lock), never waited for: a
-- key held by another transaction answers in_progress at once.
--
-- The new rows of plain items (entries, postings, reversal records, outbox events, idempotency keys)
-- are gathered in arrays during the loop and written by one INSERT per table after it (0008); a
-- pending item's rows are written by `wallet_apply_pending` as it goes. The seal queue is filled by a
-- statement trigger on `ledger_entries` (0009); the treasury-low event by a row trigger on the shards
-- (0006). 0002's `wallet_apply_transfer_batch` and 0005's `wallet_apply_transfers` (release 1.0.0's
-- replicas) are wrappers that call this function.
CREATE OR REPLACE FUNCTION wallet_apply_ledger_batch(batch jsonb, use_shard integer, transfer_subject text, reversal_subject text)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  t wallet_batch_item;
  pending jsonb;
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
  posting_entries uuid[] := '{}';
  posting_accounts bigint[] := '{}';
  posting_amounts numeric[] := '{}';
  reversed uuid[] := '{}';
  reversals uuid[] := '{}';
  reasons text[] := '{}';
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
            key_partners := key_partners || t.partner_id;
            keys := keys || t.idempotency_key;
            key_hashes := key_hashes || t.request_hash;
            key_entries := key_entries || entry.id;
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
      IF t.direction = 'to_user' THEN
        INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.partner_id, 'user', t.user_id, t.coins)
          ON CONFLICT (partner_id, user_id) WHERE kind = 'user'
          DO UPDATE SET balance = a.balance + EXCLUDED.balance, updated_at = now()
          RETURNING a.id, a.balance INTO wallet_id, wallet_balance;
        signed := t.coins;
      ELSE
        UPDATE accounts a SET balance = a.balance - t.coins, updated_at = now()
         WHERE a.partner_id = t.partner_id AND a.kind = 'user' AND a.user_id = t.user_id AND a.balance >= t.coins
         RETURNING a.id, a.balance INTO wallet_id, wallet_balance;
        IF NOT FOUND THEN
          outcome := 'insufficient';
        END IF;
        signed := -t.coins;
      END IF;
    END IF;

    IF outcome IS NULL THEN
      IF room ? t.partner_id::text THEN
        room := jsonb_set(room, ARRAY[t.partner_id::text], to_jsonb((room ->> t.partner_id::text)::numeric - signed));
      END IF;
      SELECT a.id INTO partner_account FROM accounts a
       WHERE a.partner_id = t.partner_id AND a.kind = 'partner' AND a.shard = use_shard;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'partner % has no issuance account shard %', t.partner_id, use_shard;
      END IF;
      entry.id := gen_random_uuid();
      entry.seq := nextval(entry_seq);
      entry.partner_id := t.partner_id;
      entry.user_id := t.user_id;
      entry.transaction_type := CASE WHEN t.reverses IS NOT NULL THEN 'reversal'
        WHEN t.direction = 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END;
      entry.debit_or_credit := CASE t.direction WHEN 'to_user' THEN 'CR' ELSE 'DE' END;
      entry.coins := t.coins;
      entry.narration := t.narration;
      entry.from_party := t.from_party;
      entry.to_party := t.to_party;
      entry.created_at := clock_timestamp();
      entry.updated_at := entry.created_at;
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
        event_ids := event_ids || event_id;
        event_subjects := event_subjects || transfer_subject;
        event_payloads := event_payloads || jsonb_build_object(
          'eventId', event_id,
          'partnerId', entry.partner_id,
          'ledgerEntryId', entry.id,
          'userId', entry.user_id,
          'transactionType', entry.transaction_type,
          'debitOrCredit', entry.debit_or_credit,
          'coins', entry.coins::text,
          'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        );
        event_traces := event_traces || COALESCE(t.trace_context, '{}'::jsonb);
      ELSE
        reversed := reversed || t.reverses;
        reversals := reversals || entry.id;
        reasons := reasons || t.reason;
        SELECT * INTO original FROM ledger_entries WHERE id = t.reverses;
        event_ids := event_ids || event_id;
        event_subjects := event_subjects || reversal_subject;
        event_payloads := event_payloads || jsonb_build_object(
          'eventId', event_id,
          'partnerId', entry.partner_id,
          'ledgerEntryId', entry.id,
          'userId', entry.user_id,
          'debitOrCredit', entry.debit_or_credit,
          'coins', entry.coins::text,
          'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'reversedEntryId', original.id,
          'reversedTransactionType', original.transaction_type,
          'reversedRuleReward', original.rule_reward,
          'reversedCreatedAt', to_char(original.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        );
        event_traces := event_traces || COALESCE(t.trace_context, '{}'::jsonb);
      END IF;
      IF t.idempotency_key IS NOT NULL THEN
        key_partners := key_partners || t.partner_id;
        keys := keys || t.idempotency_key;
        key_hashes := key_hashes || t.request_hash;
        key_entries := key_entries || entry.id;
      END IF;
      outcome := 'done';
    END IF;

    results := results || jsonb_build_object(
      'item', t.item, 'outcome', outcome, 'entry', CASE
        WHEN entry.id IS NULL THEN NULL
        WHEN outcome = 'replay' THEN to_jsonb(entry) || jsonb_build_object(
          'reversed', EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = entry.id))
        ELSE to_jsonb(entry) END);
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
                        updated_at = now()
     WHERE id = d.account_id;
  END LOOP;

  RETURN to_jsonb(results);
END
$fn$;
