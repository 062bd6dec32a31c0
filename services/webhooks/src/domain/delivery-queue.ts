import { boundQuery, type EntityManager } from '@coin/db';
import type { Job, JobQueue } from '@coin/jobs';

/**
 * Deliveries not yet delivered, one partner's deliveries never taking every worker slot. A parked
 * delivery is the partner's `failed` one; a replay makes it `pending` again. Any outcome ends a
 * partner's extra attempt (`resume_at`, see retryDelivery).
 */
export const deliveryQueue: JobQueue = {
  name: 'webhook-delivery',
  table: 'deliveries',
  unfinished: "status <> 'delivered'",
  pending: "status = 'pending'",
  fairnessKey: 'partner_id',
  onDone: "status = 'delivered', delivered_at = now(), resume_at = NULL, updated_at = now()",
  onPark: "status = 'failed', resume_at = NULL, updated_at = now()",
  onReplay: "status = 'pending', resume_at = NULL, updated_at = now()",
  onRetry: 'resume_at = NULL, updated_at = now()',
};

export interface Outcome {
  url: string | null;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
}

/**
 * Records that an attempt has begun (no outcome yet) before anything is sent: a process that dies
 * mid-way leaves an attempt whose outcome is unknown. Attempts are numbered for the delivery's whole
 * life, across replays; `manual` marks the ones the partner asked for.
 */
export async function startAttempt(em: EntityManager, deliveryId: string, manual: boolean): Promise<number> {
  const [row] = await boundQuery<{ attempt: number }>(
    em,
    `INSERT INTO delivery_attempts (delivery_id, attempt, manual)
     SELECT $1, coalesce(max(attempt), 0) + 1, $2 FROM delivery_attempts WHERE delivery_id = $1
     RETURNING attempt`,
    [deliveryId, manual],
  );
  return row.attempt;
}

/** The attempt's outcome, and the delivery's last status, written only while the claim owns it. */
export async function finishAttempt(
  em: EntityManager,
  d: Job<unknown>,
  attempt: number,
  o: Outcome,
): Promise<void> {
  await em.transactional(async (tx) => {
    await boundQuery(
      tx,
      `UPDATE delivery_attempts SET url = $3, finished_at = now(), status_code = $4, error = $5, duration_ms = $6
        WHERE delivery_id = $1 AND attempt = $2`,
      [d.id, attempt, o.url, o.statusCode, o.error, o.durationMs],
    );
    await boundQuery(
      tx,
      `UPDATE deliveries SET last_status_code = $3, updated_at = now()
        WHERE id = $1 AND next_attempt_at = $2::timestamptz`,
      [d.id, d.lease, o.statusCode],
    );
  });
}

export async function isDisabled(em: EntityManager, partnerId: string, url: string): Promise<boolean> {
  const rows = await boundQuery(em, 'SELECT 1 FROM disabled_endpoints WHERE partner_id = $1 AND url = $2', [
    partnerId,
    url,
  ]);
  return rows.length > 0;
}

export async function disableEndpoint(em: EntityManager, partnerId: string, url: string): Promise<void> {
  await boundQuery(
    em,
    'INSERT INTO disabled_endpoints (partner_id, url) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [partnerId, url],
  );
}
