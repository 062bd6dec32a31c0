-- Deliveries become a queue of @coin/jobs: a failed delivery is a parked job (kept with its error,
-- replayable), and the attempt bound is the queue's, so the per-row bound is no longer written.
-- Expand only: `max_attempts` stays for 1.0.0 replicas (defaulted to 1.0.0's bound, the default
-- retry schedule's length, for the rows the current code inserts), and a trigger parks the rows
-- 1.0.0 marks failed and unparks the ones its retry makes pending again. Both go one release later.
ALTER TABLE deliveries ALTER COLUMN max_attempts SET DEFAULT 8;
ALTER TABLE deliveries ADD COLUMN parked_at timestamptz;
UPDATE deliveries SET parked_at = updated_at WHERE status = 'failed';

      CREATE FUNCTION deliveries_parked_when_failed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.parked_at := CASE WHEN NEW.status = 'failed' THEN coalesce(NEW.parked_at, now()) END;
        RETURN NEW;
      END $$;

      CREATE TRIGGER deliveries_parked_when_failed BEFORE INSERT OR UPDATE ON deliveries
        FOR EACH ROW EXECUTE FUNCTION deliveries_parked_when_failed();
CREATE INDEX deliveries_due_jobs ON deliveries (next_attempt_at) WHERE status = 'pending' AND parked_at IS NULL;
