-- Pending (two-phase) transfers. A transfer to a user may be held pending: the coins leave the
-- partner (they count as outstanding, under its issuance limit) but the user cannot spend them until
-- the partner posts it (in full or for less) or voids it, or its expiry does one or the other. Expand
-- only; the previous release writes none of the new rows and meets constraints it already met:
--
-- - `accounts` of kind `hold`: one per (partner, user) that ever had a pending transfer, holding the
--   coins of the user's pending transfers. Held: partner shard → hold (`pending_transfer` entry, CR on
--   the hold). Posted: hold → wallet (a `partner_user_transfer`, so every consumer of transfer events
--   counts it as the credit it is). Voided, expired, or what a post for less leaves: hold → partner
--   shard (`pending_void`, DE on the hold). Every entry keeps its two postings. The constraints keep
--   their names and widen (NOT VALID: the rows already there met the narrower ones): a hold has a
--   user, and no hold, like no wallet, goes below zero.
-- - `pending_transfers`: one row per pending transfer, named by the id of the entry that held it. Its
--   status moves once, from pending to posted, voided or expired, under its row lock.
-- - `wallet_batch_item`: the batch function's item as a type, so it can hand a pending item whole to
--   `wallet_apply_pending` (below), which the batch function (0014) calls for pending items only:
--   plain transfers and reversals never call it.
--
-- Locking, inside the batch function's order (0014's header): the pending rows a batch resolves are
-- locked before any wallet; for a user, the wallet before the hold.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check CHECK (kind IN ('partner', 'user', 'hold')) NOT VALID;
ALTER TABLE accounts DROP CONSTRAINT accounts_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_check CHECK ((kind IN ('user', 'hold')) = (user_id IS NOT NULL)) NOT VALID;
ALTER TABLE accounts DROP CONSTRAINT user_wallet_not_negative;
ALTER TABLE accounts ADD CONSTRAINT user_wallet_not_negative CHECK (kind = 'partner' OR balance >= 0) NOT VALID;
CREATE UNIQUE INDEX accounts_hold ON accounts (partner_id, user_id) WHERE kind = 'hold';
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transaction_type_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_transaction_type_check CHECK (transaction_type IN (
  'partner_user_transfer', 'user_partner_transfer', 'reversal', 'pending_transfer', 'pending_void')) NOT VALID;

CREATE TABLE pending_transfers (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  user_id uuid NOT NULL,
  coins numeric(20, 2) NOT NULL CHECK (coins > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'posted', 'voided', 'expired')),
  expires_at timestamptz,
  on_expiry text NOT NULL CHECK (on_expiry IN ('void', 'post')),
  rule_reward boolean NOT NULL DEFAULT false,
  posted_coins numeric(20, 2) CHECK (posted_coins > 0 AND posted_coins <= coins),
  post_entry_id uuid,
  void_entry_id uuid,
  resolved_by text CHECK (resolved_by IN ('partner', 'expiry')),
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  CHECK (on_expiry = 'void' OR expires_at IS NOT NULL),
  CHECK ((status = 'pending') = (resolved_at IS NULL) AND (resolved_at IS NULL) = (resolved_by IS NULL)),
  CHECK ((status = 'posted') = (posted_coins IS NOT NULL) AND (posted_coins IS NULL) = (post_entry_id IS NULL)),
  CHECK ((void_entry_id IS NOT NULL) = (status IN ('voided', 'expired') OR posted_coins < coins)),
  CHECK (status <> 'expired' OR resolved_by = 'expiry')
);
CREATE INDEX pending_transfers_user ON pending_transfers (partner_id, user_id, created_at DESC);
CREATE INDEX pending_transfers_partner ON pending_transfers (partner_id, created_at DESC);
CREATE INDEX pending_transfers_due ON pending_transfers (expires_at) WHERE status = 'pending' AND expires_at IS NOT NULL;

CREATE TYPE wallet_batch_item AS (
  item integer, op text, partner_id uuid, user_id uuid, direction text, coins numeric, narration text,
  idempotency_key text, request_hash text, from_party jsonb, to_party jsonb, trace_context jsonb,
  rule_reward boolean, reverses uuid, reason text, pending_id uuid, expires_at timestamptz, on_expiry text
);

CREATE FUNCTION wallet_iso(at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$fn$;

-- One event in the outbox, its id also its payload's `eventId`.
CREATE FUNCTION wallet_add_event(subject text, payload jsonb, trace jsonb) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO outbox (id, subject, payload, trace_context)
  SELECT e.id, subject, jsonb_build_object('eventId', e.id) || payload, COALESCE(trace, '{}'::jsonb)
    FROM (SELECT gen_random_uuid() AS id) e
$fn$;

-- One ledger entry and its two postings: `user_side` (the user's wallet or hold) takes +coins for a
-- CR and -coins for a DE, `other_side` the opposite. Its `seq` is taken now, under the user's wallet
-- lock the caller holds, as the batch function takes it for a plain transfer.
CREATE FUNCTION wallet_write_entry(e_partner uuid, e_user uuid, e_type text, e_side text, e_coins numeric,
                                   e_narration text, e_from jsonb, e_to jsonb, e_balance_after numeric,
                                   e_rule_reward boolean, user_side bigint, other_side bigint)
RETURNS ledger_entries
LANGUAGE plpgsql AS $fn$
DECLARE
  entry ledger_entries;
  signed numeric(20, 2) := CASE e_side WHEN 'CR' THEN e_coins ELSE -e_coins END;
BEGIN
  entry.id := gen_random_uuid();
  entry.seq := nextval(pg_get_serial_sequence('ledger_entries', 'seq')::regclass);
  entry.partner_id := e_partner;
  entry.user_id := e_user;
  entry.transaction_type := e_type;
  entry.debit_or_credit := e_side;
  entry.coins := e_coins;
  entry.narration := e_narration;
  entry.from_party := e_from;
  entry.to_party := e_to;
  entry.created_at := clock_timestamp();
  entry.updated_at := entry.created_at;
  entry.balance_after := e_balance_after;
  entry.rule_reward := e_rule_reward;
  INSERT INTO ledger_entries (id, seq, partner_id, user_id, transaction_type, debit_or_credit, coins, narration,
                              from_party, to_party, created_at, updated_at, balance_after, rule_reward)
    OVERRIDING SYSTEM VALUE
    VALUES (entry.id, entry.seq, entry.partner_id, entry.user_id, entry.transaction_type, entry.debit_or_credit,
            entry.coins, entry.narration, entry.from_party, entry.to_party, entry.created_at, entry.updated_at,
            entry.balance_after, entry.rule_reward);
  INSERT INTO postings (entry_id, account_id, amount) VALUES (entry.id, user_side, signed), (entry.id, other_side, -signed);
  RETURN entry;
END
$fn$;

-- A pending item of the batch: `hold` (a transfer to a user made pending), `post`, `void`, or
-- `expire` (the expiry job). Answers {outcome, entry, released} and, when the partner's shard moves,
-- {shard, balance, issued}: the batch function adds them to the shard at its end, in its lock order.
-- Outcomes: done; not_found; already_posted, already_voided, already_expired (resolved before);
-- expired (a post or void that came after the expiry, which this call then applied); exceeds (a post
-- of more than held); skipped (an expire item of a transfer not due or already resolved).
CREATE FUNCTION wallet_apply_pending(t wallet_batch_item, use_shard integer, transfer_subject text)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  p pending_transfers;
  origin ledger_entries;
  entry ledger_entries;
  released ledger_entries;
  wallet_id bigint;
  wallet_balance numeric(20, 2);
  hold_id bigint;
  shard_id bigint;
  post_coins numeric(20, 2);
  new_status text;
  resolver text := 'partner';
  answer text := 'done';
  at timestamptz := clock_timestamp();
BEGIN
  SELECT a.id INTO shard_id FROM accounts a WHERE a.partner_id = t.partner_id AND a.kind = 'partner' AND a.shard = use_shard;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'partner % has no issuance account shard %', t.partner_id, use_shard;
  END IF;

  IF t.op <> 'hold' THEN
    SELECT * INTO p FROM pending_transfers WHERE id = t.pending_id AND partner_id = t.partner_id AND user_id = t.user_id;
    IF NOT FOUND THEN
      RETURN jsonb_build_object('outcome', 'not_found');
    ELSIF p.status <> 'pending' THEN
      RETURN jsonb_build_object('outcome', CASE WHEN t.op = 'expire' THEN 'skipped' ELSE 'already_' || p.status END);
    ELSIF p.expires_at <= at THEN
      -- Past its expiry the expiry decides, whoever asks: a post or void that comes late applies it.
      post_coins := CASE p.on_expiry WHEN 'post' THEN p.coins ELSE 0 END;
      new_status := CASE p.on_expiry WHEN 'post' THEN 'posted' ELSE 'expired' END;
      resolver := 'expiry';
      IF t.op <> 'expire' THEN
        answer := 'expired';
      END IF;
    ELSIF t.op = 'expire' THEN
      RETURN jsonb_build_object('outcome', 'skipped');
    ELSIF t.op = 'post' THEN
      post_coins := COALESCE(t.coins, p.coins);
      IF post_coins > p.coins THEN
        RETURN jsonb_build_object('outcome', 'exceeds');
      END IF;
      new_status := 'posted';
    ELSE
      post_coins := 0;
      new_status := 'voided';
    END IF;
  END IF;

  -- The user's wallet first, locked (created empty for a first hold): balanceAfter is read under it.
  SELECT a.id, a.balance INTO wallet_id, wallet_balance FROM accounts a
   WHERE a.partner_id = t.partner_id AND a.kind = 'user' AND a.user_id = t.user_id FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.partner_id, 'user', t.user_id, 0)
      ON CONFLICT (partner_id, user_id) WHERE kind = 'user' DO UPDATE SET updated_at = now()
      RETURNING a.id, a.balance INTO wallet_id, wallet_balance;
  END IF;

  IF t.op = 'hold' THEN
    INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.partner_id, 'hold', t.user_id, t.coins)
      ON CONFLICT (partner_id, user_id) WHERE kind = 'hold'
      DO UPDATE SET balance = a.balance + EXCLUDED.balance, updated_at = now()
      RETURNING a.id INTO hold_id;
    entry := wallet_write_entry(t.partner_id, t.user_id, 'pending_transfer', 'CR', t.coins, t.narration,
                                t.from_party, t.to_party, wallet_balance, COALESCE(t.rule_reward, false), hold_id, shard_id);
    INSERT INTO pending_transfers (id, partner_id, user_id, coins, expires_at, on_expiry, rule_reward, created_at)
    VALUES (entry.id, t.partner_id, t.user_id, entry.coins, t.expires_at, COALESCE(t.on_expiry, 'void'),
            entry.rule_reward, entry.created_at);
    PERFORM wallet_add_event('events.wallet.pendingCreated', jsonb_build_object(
      'partnerId', entry.partner_id, 'pendingTransferId', entry.id, 'ledgerEntryId', entry.id,
      'userId', entry.user_id, 'coins', entry.coins::text, 'expiresAt', wallet_iso(t.expires_at),
      'onExpiry', COALESCE(t.on_expiry, 'void'), 'createdAt', wallet_iso(entry.created_at)), t.trace_context);
    RETURN jsonb_build_object('outcome', 'done', 'entry', to_jsonb(entry),
                              'shard', shard_id, 'balance', -entry.coins, 'issued', entry.coins);
  END IF;

  SELECT * INTO origin FROM ledger_entries WHERE id = p.id;
  UPDATE accounts SET balance = balance - p.coins, updated_at = now()
   WHERE partner_id = t.partner_id AND kind = 'hold' AND user_id = t.user_id
   RETURNING id INTO hold_id;
  IF post_coins > 0 THEN
    UPDATE accounts SET balance = balance + post_coins, updated_at = now() WHERE id = wallet_id
     RETURNING balance INTO wallet_balance;
    entry := wallet_write_entry(t.partner_id, t.user_id, 'partner_user_transfer', 'CR', post_coins,
                                COALESCE(t.narration, 'pending transfer ' || p.id || ' posted'),
                                origin.from_party, origin.to_party, wallet_balance, p.rule_reward, wallet_id, hold_id);
    PERFORM wallet_add_event(transfer_subject, jsonb_build_object(
      'partnerId', entry.partner_id, 'ledgerEntryId', entry.id, 'userId', entry.user_id,
      'transactionType', entry.transaction_type, 'debitOrCredit', entry.debit_or_credit,
      'coins', entry.coins::text, 'createdAt', wallet_iso(entry.created_at)), t.trace_context);
  END IF;
  IF post_coins < p.coins THEN
    released := wallet_write_entry(t.partner_id, t.user_id, 'pending_void', 'DE', p.coins - post_coins,
      'pending transfer ' || p.id || CASE
        WHEN post_coins > 0 THEN ': the part not posted, released'
        WHEN resolver = 'expiry' THEN ' expired'
        ELSE ' voided' || COALESCE(': ' || t.reason, '') END,
      origin.to_party, origin.from_party, wallet_balance, false, hold_id, shard_id);
  END IF;
  UPDATE pending_transfers
     SET status = new_status, posted_coins = NULLIF(post_coins, 0), post_entry_id = entry.id,
         void_entry_id = released.id, resolved_by = resolver, resolved_at = at
   WHERE id = p.id;
  IF new_status = 'posted' THEN
    PERFORM wallet_add_event('events.wallet.pendingPosted', jsonb_build_object(
      'partnerId', p.partner_id, 'pendingTransferId', p.id, 'ledgerEntryId', entry.id, 'userId', p.user_id,
      'coins', entry.coins::text, 'releasedCoins', (p.coins - post_coins)::text, 'releasedEntryId', released.id,
      'resolvedBy', resolver, 'createdAt', wallet_iso(entry.created_at)), t.trace_context);
  ELSE
    PERFORM wallet_add_event('events.wallet.pendingVoided', jsonb_build_object(
      'partnerId', p.partner_id, 'pendingTransferId', p.id, 'ledgerEntryId', released.id, 'userId', p.user_id,
      'coins', released.coins::text, 'status', new_status, 'resolvedBy', resolver,
      'createdAt', wallet_iso(released.created_at)), t.trace_context);
  END IF;
  IF released.id IS NULL THEN
    RETURN jsonb_build_object('outcome', answer, 'entry', to_jsonb(entry));
  END IF;
  RETURN jsonb_build_object('outcome', answer, 'entry', to_jsonb(CASE WHEN entry.id IS NULL THEN released ELSE entry END),
                            'shard', shard_id, 'balance', released.coins, 'issued', -released.coins)
      || CASE WHEN entry.id IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('released', to_jsonb(released)) END;
END
$fn$;
