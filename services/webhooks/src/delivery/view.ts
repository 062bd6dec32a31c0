import type { webhooks } from '@coin/contracts';
import type { EntityManager } from '@coin/db';

type DeliveryView = ReturnType<typeof webhooks.deliverySchema.parse>;

interface DeliveryRow {
  id: string;
  event_type: string;
  event_id: string;
  status: DeliveryView['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  attempt_log: {
    attempt: number;
    url: string | null;
    started_at: string;
    finished_at: string | null;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
  }[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Deliveries with their attempts, in one query (the body is never read here: it may be megabytes). */
export async function deliveryViews(
  em: EntityManager,
  where: string,
  params: unknown[],
  tail = '',
): Promise<DeliveryView[]> {
  const rows = await em.execute<DeliveryRow[]>(
    `SELECT d.id, d.event_type, d.event_id, d.status, d.attempts, d.last_status_code, d.last_error,
            d.next_attempt_at, d.delivered_at, d.created_at,
            COALESCE((SELECT json_agg(a ORDER BY a.attempt) FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
       FROM deliveries d WHERE ${where} ${tail}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    event: r.event_type,
    eventId: r.event_id,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    deliveredAt: iso(r.delivered_at),
    createdAt: iso(r.created_at)!,
    attemptLog: r.attempt_log.map((a) => ({
      attempt: a.attempt,
      url: a.url,
      startedAt: iso(a.started_at)!,
      finishedAt: iso(a.finished_at),
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
    })),
  }));
}
