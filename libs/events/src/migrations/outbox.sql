-- The transactional outbox of a service that publishes events: a row written in the transaction of
-- the change it announces, published to JetStream by the relay (outbox.ts) and marked published.
-- Recorded as `0000-outbox` before the library's migrations were named after it; that migration also
-- created `applied_events`, which is applied-events.sql now (a database that ran it records both).

      CREATE TABLE IF NOT EXISTS outbox (
        id uuid PRIMARY KEY,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        trace_context jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz
      );
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (created_at) WHERE published_at IS NULL;
