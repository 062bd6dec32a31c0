import { boundQuery, type Database, type EntityManager } from '@coin/db';
import { type PollLoop, startPurge } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { outboxPurged } from './metrics.ts';

/**
 * Deletes up to `limit` outbox rows published more than `retentionHours` ago, oldest first (the
 * `outbox_published` index), and returns how many. Rows another replica is deleting are skipped, not
 * waited for; unpublished rows, pending or parked, are never touched.
 */
async function purgePublishedOutbox(
  em: EntityManager,
  retentionHours: number,
  limit: number,
): Promise<number> {
  const [{ deleted }] = await boundQuery<{ deleted: number }>(
    em,
    `WITH d AS (
       DELETE FROM outbox WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM outbox WHERE published_at < now() - make_interval(hours => $1)
          ORDER BY published_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING 1)
     SELECT count(*)::int AS deleted FROM d`,
    [retentionHours, limit],
  );
  return deleted;
}

/**
 * Keeps the outbox to its backlog and the last `retentionHours` of published rows, which a restore
 * needs (it sends again those of the 24 hours before its backup that no restored consumer applied).
 * A published row is otherwise never read again, and each is about 1 KB per event.
 */
export function startOutboxRetention(opts: {
  orm: Database;
  log: Logger;
  service: string;
  retentionHours: number;
  /** Between two purges once the old rows are gone; 10 minutes by default. */
  intervalMs?: number;
}): PollLoop {
  return startPurge({
    what: 'published outbox rows',
    orm: opts.orm,
    log: opts.log,
    deleteSome: (em, chunk) => purgePublishedOutbox(em, opts.retentionHours, chunk),
    intervalMs: opts.intervalMs ?? 10 * 60_000,
    onDeleted: (count) => outboxPurged.inc({ service: opts.service }, count),
  });
}
