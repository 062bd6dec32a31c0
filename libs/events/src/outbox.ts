import { randomUUID } from 'node:crypto';
import { type BackoffOptions, backoffDelay } from '@coin/backoff';
import { namesOf } from '@coin/bus';
import { boundQuery, type Database, type EntityManager } from '@coin/db';
import { type QueueReading, readQueue, startPollLoop } from '@coin/jobs';
import { type Logger, serializeTraceContext } from '@coin/telemetry';
import type { NatsConnection } from '@nats-io/transport-node';
import { outboxPublished, watchOutbox } from './metrics.ts';
import { outboxQueue } from './migrations.ts';
import { type OutboxRow, publishRow, refusedForGood } from './publish-row.ts';
import { requireEventsStream } from './stream.ts';

export interface OutboxEvent {
  subject: string;
  payload: Record<string, unknown>;
  id?: string;
}

/**
 * Stores an event in the caller's transaction; it is published only if that transaction commits.
 * The row keeps the trace context of the call that wrote it, so the consumer's span joins its trace.
 */
export async function addToOutbox(em: EntityManager, event: OutboxEvent): Promise<string> {
  const id = event.id ?? randomUUID();
  await boundQuery(em, 'INSERT INTO outbox (id, subject, payload, trace_context) VALUES ($1, $2, $3, $4)', [
    id,
    event.subject,
    JSON.stringify({ ...event.payload, eventId: id }),
    JSON.stringify(serializeTraceContext()),
  ]);
  return id;
}

export interface OutboxRelay {
  /** Publish now rather than at the next tick (call after a commit that added events). */
  notify(): void;
  /** Rows not yet acknowledged by JetStream nor parked, the age of the oldest in seconds, and the parked. */
  backlog(): Promise<QueueReading>;
  stop(): Promise<void>;
}

export interface RelayOptions {
  db: Database;
  nc: NatsConnection;
  log: Logger;
  /** The `service` label of the outbox metrics; by default the logger's `service` binding. */
  service?: string;
  /** How long an idle relay waits for a writer's notify before it looks anyway; 1 s by default. */
  intervalMs?: number;
  batchSize?: number;
  /** How long one publish may wait for JetStream's acknowledgement. */
  publishTimeoutMs?: number;
  /** Tries before a row that keeps failing is parked; the default spans more than 24 hours. */
  maxAttempts?: number;
  backoff?: BackoffOptions;
}

interface Failure {
  id: string;
  error: string;
  delay_ms: number;
  park: boolean;
}

/**
 * A relay pass's settings, for its transaction only.
 *
 * The marks need not wait for the WAL's flush: one lost to a Postgres crash leaves its row pending,
 * and the row is published again under the same Nats-Msg-Id, as after a relay crash. Waiting made
 * every relay pass an fsync beside the transfers' own, which cost transfers throughput and tail
 * latency (docs/decisions/2026-11-24-outbox-relay-asynchronous-commit.md).
 *
 * The claim reads the pending index in its order and stops at the batch. The planner, sure that few
 * rows are pending, took a bitmap scan and a sort instead, which visit every row the index still
 * lists: a published row stays in it until the table is vacuumed, so each pass read every row
 * published since the last vacuum, a cost growing with the run
 * (docs/decisions/2026-11-24-outbox-claim-index-scan.md). An index scan marks the
 * entries of published rows dead the first time it meets them once no open transaction can still
 * see those rows, and steps over them after.
 */
export const RELAY_PASS_SETTINGS =
  "SELECT set_config('synchronous_commit', 'off', true), set_config('enable_bitmapscan', 'off', true)";

/** The oldest due rows, up to $1, that no other relay holds. */
export const CLAIM_DUE_ROWS = `SELECT id, subject, payload::text AS payload, trace_context, attempts FROM outbox
  WHERE published_at IS NULL AND parked_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= now())
  ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`;

/**
 * Claims due rows with FOR UPDATE SKIP LOCKED (any number of replicas can relay), publishes them
 * all at once, each with `Nats-Msg-Id` = event id, and in the same transaction marks published the
 * ones JetStream acknowledged: a crash between ack and commit republishes, which the stream's
 * duplicate window and the consumers' applied-event ids make harmless. Each row stands alone: one
 * that fails is retried with backoff and parked after `maxAttempts` (at once when no retry can help,
 * e.g. over the payload limit), while the rows behind it go out.
 */
export function startOutboxRelay(opts: RelayOptions): OutboxRelay {
  const publishTimeoutMs = opts.publishTimeoutMs ?? 5000;
  const names = namesOf(opts.nc);
  const batch = opts.batchSize ?? 200;
  const maxAttempts = opts.maxAttempts ?? 3500;
  const backoff = opts.backoff ?? { baseMs: 100, capMs: 60_000 };
  const service = opts.service ?? String(opts.log.bindings().service ?? 'unknown');
  let streamReady = false;

  function failure(row: OutboxRow, err: unknown): Failure {
    const attempts = row.attempts + 1;
    const park = refusedForGood(err) || attempts >= maxAttempts;
    const error = err instanceof Error ? err.message || err.name : String(err);
    if (park) opts.log.error({ err, eventId: row.id, subject: row.subject, attempts }, 'outbox row parked');
    else
      opts.log.warn(
        { err, eventId: row.id, subject: row.subject, attempts },
        'outbox row not published; will retry',
      );
    return { id: row.id, error, park, delay_ms: backoffDelay(attempts, backoff) };
  }

  async function relayOnce(): Promise<number> {
    if (!streamReady) {
      await requireEventsStream(opts.nc);
      streamReady = true;
    }
    return opts.db.em.fork().transactional(async (tx) => {
      await boundQuery(tx, RELAY_PASS_SETTINGS, []);
      const rows = await boundQuery<OutboxRow>(tx, CLAIM_DUE_ROWS, [batch]);
      if (rows.length === 0) return 0;
      const outcomes = await Promise.allSettled(
        rows.map((row) => publishRow(opts.nc, names.event(row.subject), row, publishTimeoutMs)),
      );
      const published = rows.filter((_, i) => outcomes[i].status === 'fulfilled').map((r) => r.id);
      const failed = rows.flatMap((row, i) => {
        const o = outcomes[i];
        return o.status === 'rejected' ? [failure(row, o.reason)] : [];
      });
      if (published.length) {
        await boundQuery(tx, 'UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [
          published,
        ]);
        outboxPublished.inc({ service }, published.length);
      }
      if (failed.length) {
        await boundQuery(
          tx,
          `UPDATE outbox o SET attempts = o.attempts + 1, last_error = f.error,
                  next_attempt_at = now() + f.delay_ms * interval '1 millisecond',
                  parked_at = CASE WHEN f.park THEN now() END
             FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, error text, delay_ms int, park boolean)
            WHERE o.id = f.id`,
          [JSON.stringify(failed)],
        );
      }
      // Only a full pass is followed at once by the next. One that claimed fewer rows took every row
      // due when it looked; a row committed since comes with a notify from its writer (one during a
      // pass runs the next right after it) or at the next tick. The pass that followed every partial
      // one found nothing under load, and cost the wallet four statements for each batch of transfers
      // (docs/decisions/2026-11-24-outbox-relay-wakeups.md).
      return rows.length === batch ? published.length : 0;
    });
  }

  const loop = startPollLoop({
    once: relayOnce,
    // Every writer notifies its relay after the commit that added rows, so the tick only finds the
    // retries of failed publishes and the rows a stopped replica left; a faster tick only costs idle
    // services CPU (docs/decisions/2026-11-24-outbox-relay-wakeups.md).
    intervalMs: opts.intervalMs ?? 1000,
    onError: (err) => opts.log.warn({ err }, 'outbox relay failed; will retry'),
  });

  const backlog = (): Promise<QueueReading> => readQueue(opts.db.em.fork(), outboxQueue);
  const unwatch = watchOutbox(service, backlog);

  return {
    notify: loop.notify,
    backlog,
    async stop() {
      unwatch();
      await loop.stop();
    },
  };
}
