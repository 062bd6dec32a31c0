-- The ids of the events a consuming service has applied (apply-once.ts): an event delivered again is
-- recognised and has no second effect. Recorded as part of `0000-outbox` in databases migrated before
-- it had a migration of its own.

      CREATE TABLE IF NOT EXISTS applied_events (
        consumer text NOT NULL,
        event_id text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      );
