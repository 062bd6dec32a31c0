import { type NamedMigration, sqlMigration } from '@coin/db';
import type { JobQueue } from '@coin/jobs';

/** One of the library's migrations (./migrations/<file>.sql), recorded as `events-<file>`. */
const migration = (file: string, formerly: string): NamedMigration =>
  sqlMigration(new URL(`./migrations/${file}.sql`, import.meta.url), { name: `events-${file}`, formerly });

/**
 * A service that publishes events lists these first among its migrations: its outbox. Databases
 * migrated before the library's migrations had their names record them as `0000-*`.
 */
export const outboxMigrations = [
  migration('outbox', '0000-outbox'),
  migration('outbox-retries', '0000-outbox-retries'),
  migration('outbox-published-index', '0000-outbox-published-index'),
];

/** A service that consumes events lists these (after the outbox's, if it has one): its applied-event ids. */
export const appliedEventsMigrations = [
  migration('applied-events', '0000-outbox'),
  migration('applied-events-retention', '0000-applied-events-retention'),
];

/** The outbox seen as a queue, for the operator's list and replay of parked rows. */
export const outboxQueue: JobQueue = { name: 'outbox', table: 'outbox', unfinished: 'published_at IS NULL' };
