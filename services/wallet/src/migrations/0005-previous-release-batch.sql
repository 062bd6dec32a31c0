-- Release 1.0.0's replicas call 0001's `wallet_apply_transfers` (one-letter keys) during a rolling
-- upgrade. Left as it was, it would write entries without `balance_after`, leave the treasury's
-- `issued`/`redeemed` behind the balances and ignore the issuance limit. It now translates its batch
-- for `wallet_apply_ledger_batch` and its answer back: same signature and keys, one set of rules.
-- An issuance refused by the limit reaches such a replica as an outcome it does not know (it answers
-- an error, and nothing moved).

      CREATE OR REPLACE FUNCTION wallet_apply_transfers(batch jsonb, use_shard integer, event_subject text)
      RETURNS jsonb LANGUAGE sql AS $fn$
        SELECT COALESCE(jsonb_agg(jsonb_build_object('i', r -> 'item', 'outcome', r -> 'outcome', 'entry', r -> 'entry')), '[]'::jsonb)
          FROM jsonb_array_elements(wallet_apply_ledger_batch(
            (SELECT COALESCE(jsonb_agg(jsonb_build_object(
                'item', x -> 'i', 'partner_id', x -> 'p', 'user_id', x -> 'u', 'direction', x -> 'dir',
                'coins', x -> 'c', 'narration', x -> 'n', 'idempotency_key', x -> 'k', 'request_hash', x -> 'h',
                'from_party', x -> 'fp', 'to_party', x -> 'tp', 'trace_context', x -> 'tc')), '[]'::jsonb)
               FROM jsonb_array_elements(batch) x),
            use_shard, event_subject, 'events.wallet.transferReversed')) r
      $fn$;
