import type { Database } from '@coin/db';
import { startPurge } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';

/** Forgets idempotency keys older than their retention, hourly, oldest first; the ledger entries stay. */
export function startIdempotencyPurge(opts: { db: Database; log: Logger; ttlHours: number }) {
  return startPurge({
    what: 'idempotency keys',
    db: opts.db,
    log: opts.log,
    table: 'idempotency_keys',
    expired: 'created_at < now() - make_interval(hours => $1)',
    params: [opts.ttlHours],
    oldestFirst: 'created_at',
    intervalMs: 60 * 60_000,
  });
}
