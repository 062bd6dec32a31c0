import type { Database } from '@coin/db';
import { type PollLoop, startPurge } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { outboxPurged } from './metrics.ts';

/**
 * Keeps the outbox to its backlog and the last `retentionHours` of published rows, which a restore
 * needs (it sends again those of the 24 hours before its backup that no restored consumer applied).
 * A published row is otherwise never read again, and the table would grow with every event
 * (docs/decisions/2026-11-27-outbox-retention-purge.md). Oldest first, by
 * the `outbox_published` index; unpublished rows, pending or parked, are never touched.
 */
export function startOutboxRetention(opts: {
  db: Database;
  log: Logger;
  service: string;
  retentionHours: number;
}): PollLoop {
  return startPurge({
    what: 'published outbox rows',
    db: opts.db,
    log: opts.log,
    table: 'outbox',
    expired: 'published_at < now() - make_interval(hours => $1)',
    params: [opts.retentionHours],
    oldestFirst: 'published_at',
    intervalMs: 10 * 60_000,
    onDeleted: (count) => outboxPurged.inc({ service: opts.service }, count),
  });
}
