-- The mail outbox becomes a queue of @coin/jobs: a mail given up is parked, to be replayed.
-- Expand only: `parked_at` is added beside 1.0.0's `failed_at`, and a trigger keeps the two equal
-- whichever release wrote, so 1.0.0 replicas (during the rolling update, or after a rollback) skip
-- parked mails and a mail 1.0.0 gave up stays parked. `failed_at` and the trigger go one release later.
ALTER TABLE mail_outbox ADD COLUMN parked_at timestamptz;
UPDATE mail_outbox SET parked_at = failed_at WHERE failed_at IS NOT NULL;

      CREATE FUNCTION mail_outbox_parked_as_failed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          NEW.parked_at := coalesce(NEW.parked_at, NEW.failed_at);
        ELSIF NEW.parked_at IS NOT DISTINCT FROM OLD.parked_at THEN
          NEW.parked_at := NEW.failed_at;
        END IF;
        NEW.failed_at := NEW.parked_at;
        RETURN NEW;
      END $$;

      CREATE TRIGGER mail_outbox_parked_as_failed BEFORE INSERT OR UPDATE ON mail_outbox
        FOR EACH ROW EXECUTE FUNCTION mail_outbox_parked_as_failed();
CREATE INDEX mail_outbox_due_jobs ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND parked_at IS NULL;
