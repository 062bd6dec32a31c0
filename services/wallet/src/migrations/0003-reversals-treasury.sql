-- Reversals, the balance after each entry and the partner treasury. Expand only:
--
-- - `ledger_entries.balance_after`: the user's wallet balance right after the entry, written by the
--   batch function from the wallet row it holds locked, so it is exact under any concurrency.
--   Entries written before this migration get it from their user's running sum in `seq` order.
-- - `ledger_entries.rule_reward`: the entry pays a rule's reward, so reversing it also takes the
--   points off the points leaderboard.
-- - `ledger_reversals`: original → correcting entry. Its primary key is what makes an entry
--   reversible at most once, whatever the concurrency.
-- - `accounts.issued` / `accounts.redeemed` on the partner's shards, kept with the balance, so the
--   treasury reads eight rows instead of the ledger.
-- - `wallet_treasuries`: a partner's issuance limit (no row or NULL: unlimited).
-- - The transaction type check admits `reversal` (same constraint name, wider).
-- - `wallet_apply_ledger_batch`: 0002's function grown by reversals, `balance_after` and the issuance
--   limit (its items add `rule_reward`, and for a reversal `reverses` and `reason`; its outcomes add
--   `already_reversed` and `limit_reached`). 0002's function now calls it, so replicas of the
--   previous release keep working during a rolling upgrade and already meet the issuance limit.
--
-- Locking order, the same in every transaction so batches never deadlock: the treasury rows of the
-- limited partners the batch issues to (partner order), the originals the batch reverses (id order),
-- user wallets (partner, user order), the partner shards (id order, at the end). A partner without a
-- limit takes no treasury lock. With the partner's treasury row held, every earlier issuing batch of
-- the partner has committed, so `-sum(shard balances)` is its outstanding coins and the batch counts
-- its own items against the room left. Reversals are corrections and are never refused by the limit.
ALTER TABLE ledger_entries ADD COLUMN balance_after numeric(20, 2);
ALTER TABLE ledger_entries ADD COLUMN rule_reward boolean NOT NULL DEFAULT false;

      UPDATE ledger_entries e SET balance_after = r.running
        FROM (SELECT id, sum(CASE debit_or_credit WHEN 'CR' THEN coins ELSE -coins END)
                     OVER (PARTITION BY partner_id, user_id ORDER BY seq) AS running
                FROM ledger_entries) r
       WHERE r.id = e.id;

      UPDATE ledger_entries e SET rule_reward = true
        FROM idempotency_keys k
       WHERE k.entry_id = e.id AND k.key LIKE 'internal:rule-reward:%';
ALTER TABLE ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_transaction_type_check;

      ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_transaction_type_check
        CHECK (transaction_type IN ('partner_user_transfer', 'user_partner_transfer', 'reversal'));

      CREATE TABLE ledger_reversals (
        original_id uuid PRIMARY KEY REFERENCES ledger_entries (id),
        reversal_id uuid NOT NULL UNIQUE REFERENCES ledger_entries (id),
        reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
ALTER TABLE accounts ADD COLUMN issued numeric(20, 2) NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN redeemed numeric(20, 2) NOT NULL DEFAULT 0;

      UPDATE accounts a SET issued = s.issued, redeemed = s.redeemed
        FROM (SELECT p.account_id,
                     COALESCE(sum(-p.amount) FILTER (WHERE e.debit_or_credit = 'CR'), 0) AS issued,
                     COALESCE(sum(p.amount) FILTER (WHERE e.debit_or_credit = 'DE'), 0) AS redeemed
                FROM postings p JOIN ledger_entries e ON e.id = p.entry_id
               GROUP BY p.account_id) s
       WHERE a.id = s.account_id AND a.kind = 'partner';

      CREATE TABLE wallet_treasuries (
        partner_id uuid PRIMARY KEY,
        issuance_limit numeric(20, 2) CHECK (issuance_limit >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

CREATE FUNCTION wallet_apply_ledger_batch(batch jsonb, use_shard integer, transfer_subject text, reversal_subject text)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  t record;
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
  results jsonb := '[]'::jsonb;
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

  FOR t IN
    SELECT x.* FROM jsonb_to_recordset(batch)
      AS x(item integer, partner_id uuid, user_id uuid, direction text, coins numeric, narration text,
          idempotency_key text, request_hash text, from_party jsonb, to_party jsonb, trace_context jsonb,
          rule_reward boolean, reverses uuid, reason text)
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

    IF outcome IS NULL AND t.reverses IS NOT NULL THEN
      IF EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = t.reverses) THEN
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
      INSERT INTO ledger_entries
        (id, partner_id, user_id, transaction_type, debit_or_credit, coins, narration, from_party, to_party,
         balance_after, rule_reward)
      VALUES (
        gen_random_uuid(), t.partner_id, t.user_id,
        CASE WHEN t.reverses IS NOT NULL THEN 'reversal'
             WHEN t.direction = 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END,
        CASE t.direction WHEN 'to_user' THEN 'CR' ELSE 'DE' END,
        t.coins, t.narration, t.from_party, t.to_party, wallet_balance, COALESCE(t.rule_reward, false))
      RETURNING * INTO entry;
      INSERT INTO postings (entry_id, account_id, amount)
      VALUES (entry.id, wallet_id, signed), (entry.id, partner_account, -signed);
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
        INSERT INTO outbox (id, subject, payload, trace_context)
        VALUES (event_id, transfer_subject, jsonb_build_object(
          'eventId', event_id,
          'partnerId', entry.partner_id,
          'ledgerEntryId', entry.id,
          'userId', entry.user_id,
          'transactionType', entry.transaction_type,
          'debitOrCredit', entry.debit_or_credit,
          'coins', entry.coins::text,
          'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        ), COALESCE(t.trace_context, '{}'::jsonb));
      ELSE
        INSERT INTO ledger_reversals (original_id, reversal_id, reason) VALUES (t.reverses, entry.id, t.reason);
        SELECT * INTO original FROM ledger_entries WHERE id = t.reverses;
        INSERT INTO outbox (id, subject, payload, trace_context)
        VALUES (event_id, reversal_subject, jsonb_build_object(
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
        ), COALESCE(t.trace_context, '{}'::jsonb));
      END IF;
      IF t.idempotency_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id) VALUES (t.partner_id, t.idempotency_key, t.request_hash, entry.id);
      END IF;
      outcome := 'done';
    END IF;

    results := results || jsonb_build_object(
      'item', t.item, 'outcome', outcome, 'entry', CASE
        WHEN entry.id IS NULL THEN NULL
        WHEN outcome = 'replay' THEN to_jsonb(entry) || jsonb_build_object(
          'reversed', EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = entry.id))
        ELSE to_jsonb(entry) END);
  END LOOP;

  FOR d IN SELECT key::bigint AS account_id, value AS delta FROM jsonb_each(partner_deltas) ORDER BY 1
  LOOP
    UPDATE accounts SET balance = balance + (d.delta ->> 'balance')::numeric,
                        issued = issued + (d.delta ->> 'issued')::numeric,
                        redeemed = redeemed + (d.delta ->> 'redeemed')::numeric,
                        updated_at = now()
     WHERE id = d.account_id;
  END LOOP;

  RETURN results;
END
$fn$;

      CREATE OR REPLACE FUNCTION wallet_apply_transfer_batch(batch jsonb, use_shard integer, event_subject text)
      RETURNS jsonb LANGUAGE sql AS $fn$
        SELECT wallet_apply_ledger_batch(batch, use_shard, event_subject, 'events.wallet.transferReversed')
      $fn$;
