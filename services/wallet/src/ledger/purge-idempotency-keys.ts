import { boundQuery, type Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';

const EVERY_MS = 60 * 60_000;

/** Forgets idempotency keys older than their retention, hourly; the ledger entries stay. */
export function startIdempotencyPurge(opts: { orm: Database; log: Logger; ttlHours: number }) {
  async function purge(): Promise<void> {
    try {
      const [{ deleted }] = await boundQuery<{ deleted: number }>(
        opts.orm.em.fork(),
        `WITH d AS (DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) RETURNING 1)
         SELECT count(*)::int AS deleted FROM d`,
        [opts.ttlHours],
      );
      opts.log.debug({ deleted }, 'idempotency keys purged');
    } catch (err) {
      opts.log.warn({ err }, 'idempotency key purge failed; will retry');
    }
  }
  const timer = setInterval(purge, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
