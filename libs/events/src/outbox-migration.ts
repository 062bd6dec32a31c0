import { Migration } from '@coin/db';
import type { JobQueue } from '@coin/jobs';

/** Each service that publishes or consumes includes this migration: its outbox and its applied-event ids. */
class OutboxMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE IF NOT EXISTS outbox (
        id uuid PRIMARY KEY,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        trace_context jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz
      )`);
    this.addSql(
      'CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (created_at) WHERE published_at IS NULL',
    );
    this.addSql(`
      CREATE TABLE IF NOT EXISTS applied_events (
        consumer text NOT NULL,
        event_id text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }
}

/**
 * A row that cannot be published is retried with backoff and at last parked (a dead letter kept in
 * place, with its error), instead of being claimed first again and again. A NULL next attempt is
 * due at once, so writing a row costs nothing more than before.
 */
class OutboxRetriesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE outbox
        ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz,
        ADD COLUMN IF NOT EXISTS last_error text,
        ADD COLUMN IF NOT EXISTS parked_at timestamptz`);
    this.addSql('DROP INDEX IF EXISTS outbox_pending');
    this.addSql(
      'CREATE INDEX outbox_pending ON outbox (created_at) WHERE published_at IS NULL AND parked_at IS NULL',
    );
    this.addSql('CREATE INDEX outbox_parked ON outbox (parked_at) WHERE parked_at IS NOT NULL');
  }
}

/**
 * The retention purge (outbox-retention.ts) finds published rows by when they were published,
 * oldest first, without reading the rest of the table. Only the "published" mark adds an entry, and
 * that update already writes the row anew and a key entry with it.
 */
class OutboxPublishedIndexMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'CREATE INDEX IF NOT EXISTS outbox_published ON outbox (published_at) WHERE published_at IS NOT NULL',
    );
  }
}

/**
 * Applied ids are deleted once no copy of their event can arrive again (applied-events-retention.ts),
 * oldest first by `applied_events_expiring`; a parked event's id is pinned instead, for as long as its
 * replay may come. The column's constant default adds it without rewriting the table.
 */
class AppliedEventsRetentionMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE applied_events ADD COLUMN IF NOT EXISTS pinned boolean NOT NULL DEFAULT false');
    this.addSql(
      'CREATE INDEX IF NOT EXISTS applied_events_expiring ON applied_events (applied_at) WHERE NOT pinned',
    );
  }
}

/** Every service that publishes or consumes lists these first among its migrations. */
export const outboxMigrations = [
  { name: '0000-outbox', class: OutboxMigration },
  { name: '0000-outbox-retries', class: OutboxRetriesMigration },
  { name: '0000-outbox-published-index', class: OutboxPublishedIndexMigration },
  { name: '0000-applied-events-retention', class: AppliedEventsRetentionMigration },
];

/** The outbox seen as a queue, for the operator's list and replay of parked rows. */
export const outboxQueue: JobQueue = { name: 'outbox', table: 'outbox', unfinished: 'published_at IS NULL' };
