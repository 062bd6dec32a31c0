-- TREASURY_LOW: the transaction that takes a limited partner's outstanding coins from below 80 % of
-- its issuance limit to at or above it writes `events.wallet.treasuryLow` to the outbox. A trigger on
-- the partner's shard rows, rather than a change to the batch function, so the transfer path keeps
-- its statements and replicas of every release write the event alike.
--
-- It fires only when a shard's balance falls (coins issued), on the one shard row a batch updates
-- per partner, and asks no more than the partner's treasury row unless the partner has a limit.
-- Outstanding is read with the shards as this transaction sees them: issuing batches of a limited
-- partner hold its treasury row, so they cross one after the other and each crossing is written
-- once; a redemption in between that brings outstanding below the mark re-arms it. A reversal of a
-- redemption issues without the treasury row: when it crosses at the same moment as an issuing
-- batch, each sees the other's coins only after commit, so that crossing may go unreported.

      CREATE FUNCTION wallet_treasury_low() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        issuance_limit numeric(20, 2);
        outstanding numeric(20, 2);
        mark numeric;
        event_id uuid;
      BEGIN
        SELECT t.issuance_limit INTO issuance_limit FROM wallet_treasuries t WHERE t.partner_id = NEW.partner_id;
        IF issuance_limit IS NULL OR issuance_limit = 0 THEN
          RETURN NULL;
        END IF;
        SELECT -sum(a.balance) INTO outstanding FROM accounts a WHERE a.partner_id = NEW.partner_id AND a.kind = 'partner';
        mark := issuance_limit * 0.8;
        IF outstanding >= mark AND outstanding - (OLD.balance - NEW.balance) < mark THEN
          event_id := gen_random_uuid();
          INSERT INTO outbox (id, subject, payload, trace_context)
          VALUES (event_id, 'events.wallet.treasuryLow', jsonb_build_object(
            'eventId', event_id,
            'partnerId', NEW.partner_id,
            'outstanding', outstanding::text,
            'issuanceLimit', issuance_limit::text,
            'crossedAt', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          ), '{}'::jsonb);
        END IF;
        RETURN NULL;
      END
      $fn$;

      CREATE TRIGGER accounts_treasury_low AFTER UPDATE OF balance ON accounts
        FOR EACH ROW WHEN (NEW.kind = 'partner' AND NEW.balance < OLD.balance)
        EXECUTE FUNCTION wallet_treasury_low();
