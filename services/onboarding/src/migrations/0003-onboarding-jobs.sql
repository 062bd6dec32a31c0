-- Requests become a queue of @coin/jobs: the lease is the job's next due time, and a request whose
-- chunks keep failing is parked with its error, to be replayed, instead of being retried forever.
-- Expand only: `next_attempt_at` is added beside 1.0.0's `lease_until`, and a trigger keeps the two
-- equal whichever release wrote, so 1.0.0 and current replicas honour each other's leases (rolling
-- update, rollback). `lease_until` and the trigger go one release later.

      ALTER TABLE onboarding_requests
        ADD COLUMN next_attempt_at timestamptz,
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN last_error text,
        ADD COLUMN parked_at timestamptz;

      CREATE FUNCTION onboarding_requests_lease_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          NEW.next_attempt_at := coalesce(NEW.next_attempt_at, NEW.lease_until);
        ELSIF NEW.next_attempt_at IS NOT DISTINCT FROM OLD.next_attempt_at THEN
          NEW.next_attempt_at := NEW.lease_until;
        END IF;
        NEW.lease_until := NEW.next_attempt_at;
        RETURN NEW;
      END $$;

      CREATE TRIGGER onboarding_requests_lease_sync BEFORE INSERT OR UPDATE ON onboarding_requests
        FOR EACH ROW EXECUTE FUNCTION onboarding_requests_lease_sync();
UPDATE onboarding_requests SET next_attempt_at = CASE WHEN status = 'pending' THEN coalesce(lease_until, now()) ELSE lease_until END;
CREATE INDEX onboarding_requests_due ON onboarding_requests (next_attempt_at) WHERE status = 'pending' AND parked_at IS NULL;
