-- Expiry by lots. A credit to a user's wallet may carry a validity (the transfer's, a rule's, or the
-- partner's default): it then opens a lot, the coins of that credit with the time they expire. Expand
-- only; the previous release writes no lot and meets every constraint it met:
--
-- - `credit_lots`: one per credit with a validity, named by its entry's id. `remaining` is what is
--   left of it; spending takes from the lots that expire first (FIFO for lots of one validity), then
--   from coins without expiry. At its expiry what remains is debited by an `expiry` entry of its own
--   (wallet → partner shard), `expired_coins` and `expiry_entry_id` set once. Every change to a lot
--   is made under its user's wallet row lock (the batch function's step 4), so a lot expiring while it
--   is spent is decided once: expired first, then the spend sees what is left.
-- - `credit_lot_spends`: what each debit took from each lot (a reversal of that debit gives it back
--   with a negative row), so a lot's coins are always remaining + expired + spent, checkably.
-- - `accounts.expired`: on the partner shards, the coins that expired (issued − redeemed − expired is
--   what the users hold). `accounts.has_lots`: on a wallet, set with its first lot (under its lock),
--   so a debit learns from its own UPDATE whether to look at lots at all. `wallet_treasuries.default_validity`: the partner's validity for credits
--   that name none (the wallet puts it in the item).
-- - `wallet_batch_item.validity`: the validity of a credit item ({days} or {endOf: month|year}).
-- - `wallet_validity_end`: when a validity given at `at` ends ({days}, {endOf: month|year} in UTC,
--   {expiresInSeconds}, or {expiresAt}, checked by the caller to be ahead).
-- - `wallet_expire_lots` / `wallet_spend_lots`: the expiry and the FIFO spend, called by the batch
--   function (0016) with the wallet row locked; 0016's header states the locking order.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transaction_type_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_transaction_type_check CHECK (transaction_type IN (
  'partner_user_transfer', 'user_partner_transfer', 'reversal', 'pending_transfer', 'pending_void', 'expiry')) NOT VALID;
ALTER TABLE accounts ADD COLUMN expired numeric(20, 2) NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN has_lots boolean NOT NULL DEFAULT false;
ALTER TABLE wallet_treasuries ADD COLUMN default_validity jsonb;
ALTER TYPE wallet_batch_item ADD ATTRIBUTE validity jsonb;

CREATE TABLE credit_lots (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  user_id uuid NOT NULL,
  coins numeric(20, 2) NOT NULL CHECK (coins > 0),
  remaining numeric(20, 2) NOT NULL CHECK (remaining >= 0 AND remaining <= coins),
  expires_at timestamptz NOT NULL,
  expired_coins numeric(20, 2) CHECK (expired_coins > 0),
  expiry_entry_id uuid UNIQUE,
  warned_at timestamptz,
  created_at timestamptz NOT NULL,
  CHECK ((expiry_entry_id IS NULL) = (expired_coins IS NULL)),
  CHECK (expiry_entry_id IS NULL OR remaining = 0)
);
CREATE INDEX credit_lots_open ON credit_lots (partner_id, user_id, expires_at, id) WHERE remaining > 0;
CREATE INDEX credit_lots_due ON credit_lots (expires_at) WHERE remaining > 0;
CREATE INDEX credit_lots_unwarned ON credit_lots (expires_at) WHERE remaining > 0 AND warned_at IS NULL;

CREATE TABLE credit_lot_spends (
  lot_id uuid NOT NULL,
  entry_id uuid NOT NULL,
  coins numeric(20, 2) NOT NULL CHECK (coins <> 0),
  PRIMARY KEY (entry_id, lot_id)
);
CREATE INDEX credit_lot_spends_lot ON credit_lot_spends (lot_id);

CREATE FUNCTION wallet_validity_end(validity jsonb, at timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS $fn$
  SELECT CASE
    WHEN validity ? 'expiresAt' THEN (validity ->> 'expiresAt')::timestamptz
    WHEN validity ? 'expiresInSeconds' THEN at + make_interval(secs => (validity ->> 'expiresInSeconds')::int)
    WHEN validity ? 'days' THEN at + make_interval(days => (validity ->> 'days')::int)
    WHEN validity ->> 'endOf' = 'month' THEN (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
    WHEN validity ->> 'endOf' = 'year' THEN (date_trunc('year', at AT TIME ZONE 'UTC') + interval '1 year') AT TIME ZONE 'UTC'
  END
$fn$;

-- Expires the user's lots due at `at`, oldest expiry first: each an `expiry` entry (wallet → the
-- partner's shard `shard_id`), a coinsExpired event, and the lot closed. The caller holds the wallet
-- row lock and passes its balance `wallet_balance` as the entries should start from; it updates the
-- wallet and the shard itself (one UPDATE each). Answers {expired, balance, entry}: the coins expired,
-- the balance after them, and the first expiry entry.
CREATE FUNCTION wallet_expire_lots(e_partner uuid, e_user uuid, wallet_id bigint, shard_id bigint,
                                   wallet_balance numeric, at timestamptz, trace jsonb)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  l record;
  entry ledger_entries;
  first_entry ledger_entries;
  total numeric(20, 2) := 0;
  running numeric(20, 2) := wallet_balance;
BEGIN
  FOR l IN
    SELECT c.id, c.remaining, c.expires_at, o.from_party, o.to_party FROM credit_lots c
      JOIN ledger_entries o ON o.id = c.id
     WHERE c.partner_id = e_partner AND c.user_id = e_user AND c.remaining > 0 AND c.expires_at <= at
     ORDER BY c.expires_at, c.id
  LOOP
    running := running - l.remaining;
    entry := wallet_write_entry(e_partner, e_user, 'expiry', 'DE', l.remaining,
                                'coins of ' || l.id || ' expired at ' || wallet_iso(l.expires_at),
                                l.to_party, l.from_party, running, false, wallet_id, shard_id);
    UPDATE credit_lots SET remaining = 0, expired_coins = l.remaining, expiry_entry_id = entry.id WHERE id = l.id;
    PERFORM wallet_add_event('events.wallet.coinsExpired', jsonb_build_object(
      'partnerId', e_partner, 'ledgerEntryId', entry.id, 'userId', e_user, 'lotId', l.id,
      'coins', entry.coins::text, 'expiresAt', wallet_iso(l.expires_at),
      'createdAt', wallet_iso(entry.created_at)), trace);
    total := total + l.remaining;
    IF first_entry.id IS NULL THEN
      first_entry := entry;
    END IF;
  END LOOP;
  RETURN jsonb_build_object('expired', total, 'balance', running,
                            'entry', CASE WHEN first_entry.id IS NULL THEN NULL ELSE to_jsonb(first_entry) END);
END
$fn$;

-- Takes `coins` of a debit (entry `entry_id`, not yet written) from the user's open lots: first the
-- lot `first_lot` (a reversed credit's own lot), then the lots that expire first. The caller holds
-- the wallet row lock and has expired what was due. Coins beyond the lots come from coins without
-- expiry. With `restore` (a reversal of a debit), gives back to the lots not yet expired what that
-- debit took from them, with negative spends under `entry_id`.
CREATE FUNCTION wallet_spend_lots(e_partner uuid, e_user uuid, coins numeric, entry_id uuid, first_lot uuid, restore uuid)
RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  l record;
  take numeric(20, 2);
  left_ numeric(20, 2) := coins;
BEGIN
  IF restore IS NOT NULL THEN
    FOR l IN
      SELECT s.lot_id, sum(s.coins) AS spent FROM credit_lot_spends s
        JOIN credit_lots c ON c.id = s.lot_id AND c.expiry_entry_id IS NULL
       WHERE s.entry_id = restore GROUP BY s.lot_id HAVING sum(s.coins) > 0 ORDER BY s.lot_id
    LOOP
      UPDATE credit_lots SET remaining = remaining + l.spent WHERE id = l.lot_id;
      INSERT INTO credit_lot_spends (lot_id, entry_id, coins) VALUES (l.lot_id, entry_id, -l.spent);
    END LOOP;
    RETURN;
  END IF;
  FOR l IN
    SELECT c.id, c.remaining FROM credit_lots c
     WHERE c.partner_id = e_partner AND c.user_id = e_user AND c.remaining > 0
     ORDER BY c.id = first_lot IS NOT TRUE, c.expires_at, c.id
  LOOP
    EXIT WHEN left_ <= 0;
    take := least(l.remaining, left_);
    UPDATE credit_lots SET remaining = remaining - take WHERE id = l.id;
    INSERT INTO credit_lot_spends (lot_id, entry_id, coins) VALUES (l.id, entry_id, take);
    left_ := left_ - take;
  END LOOP;
END
$fn$;

-- The batch function's three lot steps (0016 calls them; each with the user's wallet row locked, or
-- locking it first, in its step 4):
-- A credit item's lot: opens one with the item's validity (answers when it ends), or for a reversal
-- of a debit gives back to its lots what it took from them (answers NULL).
CREATE FUNCTION wallet_lot_credit(t wallet_batch_item, entry_id uuid, wallet_id bigint)
RETURNS timestamptz
LANGUAGE plpgsql AS $fn$
DECLARE
  ends timestamptz;
BEGIN
  IF t.reverses IS NOT NULL THEN
    IF EXISTS (SELECT 1 FROM credit_lot_spends s WHERE s.entry_id = t.reverses) THEN
      PERFORM wallet_spend_lots(t.partner_id, t.user_id, t.coins, entry_id, NULL, t.reverses);
    END IF;
    RETURN NULL;
  END IF;
  ends := wallet_validity_end(t.validity, clock_timestamp());
  INSERT INTO credit_lots (id, partner_id, user_id, coins, remaining, expires_at, created_at)
  VALUES (entry_id, t.partner_id, t.user_id, t.coins, t.coins, ends, clock_timestamp());
  UPDATE accounts SET has_lots = true WHERE id = wallet_id AND NOT has_lots;
  RETURN ends;
END
$fn$;

-- A debit item of a user with open lots, the wallet already debited (to `wallet_balance`) under its
-- lock: expires what is due first (its entries come before the debit's), then, if what is left covers
-- the debit, spends it from the lots; if not, takes the debit back (the expiry stands). Answers
-- {expired, balance, insufficient}.
CREATE FUNCTION wallet_lot_debit(t wallet_batch_item, entry_id uuid, wallet_id bigint, shard_id bigint,
                                 wallet_balance numeric)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  lots jsonb := wallet_expire_lots(t.partner_id, t.user_id, wallet_id, shard_id, wallet_balance + t.coins,
                                   clock_timestamp(), t.trace_context);
  expired numeric(20, 2) := (lots ->> 'expired')::numeric;
  new_balance numeric(20, 2) := wallet_balance;
  short boolean := false;
BEGIN
  IF expired > 0 THEN
    short := (lots ->> 'balance')::numeric < t.coins;
    new_balance := (lots ->> 'balance')::numeric - CASE WHEN short THEN 0 ELSE t.coins END;
    UPDATE accounts SET balance = new_balance, updated_at = now() WHERE id = wallet_id;
  END IF;
  IF NOT short THEN
    PERFORM wallet_spend_lots(t.partner_id, t.user_id, t.coins, entry_id, t.reverses, NULL);
  END IF;
  RETURN jsonb_build_object('expired', expired, 'balance', new_balance, 'insufficient', short);
END
$fn$;

-- An expire_lots item (the expiry job): locks the user's wallet and expires the lots due. Answers
-- {outcome: done | skipped, expired, shard, entry (the first expiry entry)}.
CREATE FUNCTION wallet_lot_expire_item(t wallet_batch_item, use_shard integer)
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  wallet_id bigint;
  wallet_balance numeric(20, 2);
  shard_id bigint;
  lots jsonb;
BEGIN
  SELECT a.id, a.balance INTO wallet_id, wallet_balance FROM accounts a
   WHERE a.partner_id = t.partner_id AND a.kind = 'user' AND a.user_id = t.user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('outcome', 'skipped', 'expired', 0);
  END IF;
  SELECT a.id INTO shard_id FROM accounts a WHERE a.partner_id = t.partner_id AND a.kind = 'partner' AND a.shard = use_shard;
  lots := wallet_expire_lots(t.partner_id, t.user_id, wallet_id, shard_id, wallet_balance, clock_timestamp(), t.trace_context);
  IF (lots ->> 'expired')::numeric = 0 THEN
    RETURN jsonb_build_object('outcome', 'skipped', 'expired', 0);
  END IF;
  UPDATE accounts SET balance = (lots ->> 'balance')::numeric, updated_at = now() WHERE id = wallet_id;
  RETURN jsonb_build_object('outcome', 'done', 'expired', lots -> 'expired', 'shard', shard_id, 'entry', lots -> 'entry');
END
$fn$;
