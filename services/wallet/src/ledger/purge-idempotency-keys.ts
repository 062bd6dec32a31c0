import { boundQuery, type Database } from '@coin/db';
import { startPurge } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';

/** Forgets idempotency keys older than their retention (oldest first, by `idempotency_keys_created`); the ledger entries stay. */
export function startIdempotencyPurge(opts: { orm: Database; log: Logger; ttlHours: number }) {
  return startPurge({
    what: 'idempotency keys',
    orm: opts.orm,
    log: opts.log,
    intervalMs: 60 * 60_000,
    deleteSome: async (em, chunk) => {
      const [{ deleted }] = await boundQuery<{ deleted: number }>(
        em,
        `WITH d AS (
           DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
             SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)
              ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED))
           RETURNING 1)
         SELECT count(*)::int AS deleted FROM d`,
        [opts.ttlHours, chunk],
      );
      return deleted;
    },
  });
}
