import type { webhooks } from '@coin/contracts';
import { boundPage, boundQuery, boundRow, type EntityManager, isoTime } from '@coin/db';

type DeliveryView = ReturnType<typeof webhooks.deliverySchema.parse>;

interface DeliveryRow {
  id: string;
  event_type: string;
  event_id: string;
  status: DeliveryView['status'];
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  sequence: string | null;
  delivered_at: string | null;
  created_at: string;
  attempt_log: {
    attempt: number;
    url: string | null;
    started_at: string;
    finished_at: string | null;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
    manual: boolean;
  }[];
}

const iso = (d: string | null) => (d === null ? null : isoTime(d));
/** An attempt without an HTTP answer shows whole seconds: fine timing of a failed connect is a port-scan oracle. */
const coarse = (d: string | null) => {
  const t = iso(d);
  return t === null ? null : `${t.slice(0, 19)}.000Z`;
};

/** A delivery with its attempts (never the body: it may be megabytes), from `deliveries d`. */
const DELIVERY_COLUMNS = `d.id, d.event_type, d.event_id, d.status, d.last_status_code, d.last_error,
  d.next_attempt_at, d.sequence, d.delivered_at, d.created_at,
  COALESCE((SELECT json_agg(a ORDER BY a.attempt) FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log`;

function deliveryView(r: DeliveryRow): DeliveryView {
  return {
    id: r.id,
    event: r.event_type,
    eventId: r.event_id,
    status: r.status,
    attempts: r.attempt_log.length,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    deliveredAt: iso(r.delivered_at),
    sequence: r.sequence === null ? null : Number(r.sequence),
    createdAt: iso(r.created_at)!,
    attemptLog: r.attempt_log.map((a) => ({
      attempt: a.attempt,
      url: a.url,
      startedAt: (a.status_code === null ? coarse : iso)(a.started_at)!,
      finishedAt: (a.status_code === null ? coarse : iso)(a.finished_at),
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
      manual: a.manual,
    })),
  };
}

/** A page of the partner's deliveries, newest first, optionally of one status, and how many there are. */
export async function deliveriesPage(
  em: EntityManager,
  partnerId: string,
  page: { limit: number; offset: number; status?: DeliveryView['status'] },
): Promise<{ deliveries: DeliveryView[]; count: number }> {
  const { rows, count } = await boundPage<DeliveryRow>(
    em,
    {
      columns: DELIVERY_COLUMNS,
      from: 'deliveries d WHERE d.partner_id = $1 AND ($2::text IS NULL OR d.status = $2)',
      orderBy: 'd.created_at DESC, d.id',
    },
    [partnerId, page.status ?? null],
    page,
  );
  return { deliveries: rows.map(deliveryView), count };
}

/**
 * One more attempt now, to the partner's current URL. A pending delivery gets an extra attempt that
 * leaves its automatic schedule alone: it spends none of the attempts the queue allows and, if it
 * fails, the delivery is due again when it was before (`resume_at`). While an attempt is under way
 * (the extra one asked before, or an automatic one: its latest attempt has no outcome yet and its
 * lease runs), nothing more is done: that attempt's outcome is the answer. A finished delivery
 * (failed, a parked job) is made due with one attempt left before it is failed again. The partner
 * asking is taken as "my endpoint is fixed": a 410-disabled endpoint is enabled again. Undefined
 * when the partner has no such delivery.
 */
export async function retryDelivery(
  em: EntityManager,
  partnerId: string,
  id: string,
  maxAttempts: number,
): Promise<DeliveryView | undefined> {
  const found = await em.transactional(async (tx) => {
    const rows = await boundQuery<{ id: string }>(
      tx,
      `WITH t AS (
         SELECT id, status = 'pending' AND parked_at IS NULL AS scheduled,
                status = 'pending' AND parked_at IS NULL AND (resume_at IS NOT NULL OR (
                  next_attempt_at > now() AND coalesce((SELECT a.finished_at IS NULL FROM delivery_attempts a
                    WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1), false))) AS busy
           FROM deliveries d WHERE id = $1 AND partner_id = $2 FOR UPDATE)
       UPDATE deliveries d
          SET resume_at = CASE WHEN NOT t.scheduled THEN NULL WHEN t.busy THEN d.resume_at
                               ELSE coalesce(d.next_attempt_at, now()) END,
              attempts = CASE WHEN NOT t.scheduled THEN $3 - 1 WHEN t.busy THEN d.attempts ELSE d.attempts - 1 END,
              next_attempt_at = CASE WHEN t.busy THEN d.next_attempt_at ELSE now() END,
              status = 'pending', parked_at = NULL, updated_at = now()
         FROM t WHERE d.id = t.id RETURNING d.id`,
      [id, partnerId, maxAttempts],
    );
    if (rows.length)
      await boundQuery(tx, 'DELETE FROM disabled_endpoints WHERE partner_id = $1', [partnerId]);
    return rows.length > 0;
  });
  if (!found) return undefined;
  const row = await boundRow<DeliveryRow>(
    em,
    `SELECT ${DELIVERY_COLUMNS} FROM deliveries d WHERE d.id = $1`,
    [id],
  );
  return row && deliveryView(row);
}
