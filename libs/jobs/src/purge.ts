import { boundQuery, type Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import { type PollLoop, startPollLoop } from './poll-loop.ts';

/** Rows deleted per statement: short transactions, whatever the backlog. */
const CHUNK = 5000;

interface PurgeOptions {
  /** What is deleted, for the logs: "published outbox rows". */
  what: string;
  db: Database;
  log: Logger;
  table: string;
  /** The condition of an expired row, `params` as $1, $2…: "created_at < now() - make_interval(hours => $1)". */
  expired: string;
  params: readonly unknown[];
  /** Deletes oldest first by this column (give it an index); without, the first expired rows found. */
  oldestFirst?: string;
  intervalMs: number;
  onDeleted?: (count: number) => void;
}

/**
 * The one way a table is kept to its retention: one statement deletes up to 5,000 expired rows,
 * skipping those another replica is deleting. It runs at start, again at once while chunks come back
 * full, and otherwise every `intervalMs`, so a backlog (after an upgrade, an outage, a burst) goes in
 * short transactions, never in one DELETE long enough for the statement timeout to cancel it every time.
 */
export function startPurge(opts: PurgeOptions): PollLoop {
  const order = opts.oldestFirst ? `ORDER BY ${opts.oldestFirst}` : '';
  const sql = `WITH d AS (
      DELETE FROM ${opts.table} WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM ${opts.table} WHERE ${opts.expired} ${order}
         LIMIT $${opts.params.length + 1} FOR UPDATE SKIP LOCKED))
      RETURNING 1)
    SELECT count(*)::int AS deleted FROM d`;
  return startPollLoop({
    once: async () => {
      const [{ deleted }] = await boundQuery<{ deleted: number }>(opts.db.em.fork(), sql, [
        ...opts.params,
        CHUNK,
      ]);
      if (deleted > 0) {
        opts.onDeleted?.(deleted);
        opts.log.debug({ deleted }, `${opts.what} purged`);
      }
      return deleted === CHUNK ? deleted : 0;
    },
    intervalMs: opts.intervalMs,
    onError: (err) => opts.log.warn({ err }, `purge of ${opts.what} failed; will retry`),
  });
}
