-- A row that cannot be published is retried with backoff and at last parked (a dead letter kept in
-- place, with its error), instead of being claimed first again and again. A NULL next attempt is
-- due at once, so writing a row costs nothing more than before.

      ALTER TABLE outbox
        ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz,
        ADD COLUMN IF NOT EXISTS last_error text,
        ADD COLUMN IF NOT EXISTS parked_at timestamptz;
DROP INDEX IF EXISTS outbox_pending;
CREATE INDEX outbox_pending ON outbox (created_at) WHERE published_at IS NULL AND parked_at IS NULL;
CREATE INDEX outbox_parked ON outbox (parked_at) WHERE parked_at IS NOT NULL;
