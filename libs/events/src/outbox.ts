import { randomUUID } from 'node:crypto';
import { namesOf } from '@coin/bus';
import { boundQuery, type Database, type EntityManager, Migration } from '@coin/db';
import {
  deserializeTraceContext,
  injectTraceContext,
  type Logger,
  serializeTraceContext,
  tracer,
} from '@coin/telemetry';
import { jetstream } from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { outboxPublished, watchOutbox } from './metrics.ts';
import { startPollLoop } from './poll-loop.ts';
import { ensureEventsStream } from './stream.ts';

/** Each service that publishes includes this migration: its outbox and its applied-event ids. */
export class OutboxMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE IF NOT EXISTS outbox (
        id uuid PRIMARY KEY,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        trace_context jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz
      )`);
    this.addSql(
      'CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (created_at) WHERE published_at IS NULL',
    );
    this.addSql(`
      CREATE TABLE IF NOT EXISTS applied_events (
        consumer text NOT NULL,
        event_id text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }
}

export const outboxMigration = { name: '0000-outbox', class: OutboxMigration };

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

interface OutboxRow {
  id: string;
  subject: string;
  payload: Record<string, unknown>;
  trace_context: Record<string, string>;
}

export interface OutboxRelay {
  /** Publish now rather than at the next tick (call after a commit that added events). */
  notify(): void;
  /** Rows not yet acknowledged by JetStream, and the age of the oldest in seconds. */
  backlog(): Promise<{ pending: number; oldestSeconds: number }>;
  stop(): Promise<void>;
}

export interface RelayOptions {
  orm: Database;
  nc: NatsConnection;
  log: Logger;
  /** The `service` label of the outbox metrics; by default the logger's `service` binding. */
  service?: string;
  intervalMs?: number;
  batchSize?: number;
}

/**
 * Claims unpublished rows with FOR UPDATE SKIP LOCKED (any number of replicas can relay), publishes
 * each with `Nats-Msg-Id` = event id, and marks them published only after JetStream acknowledged
 * them, in the same transaction. A crash between ack and commit republishes; the stream's duplicate
 * window and the consumers' applied-event ids make that harmless.
 */
export function startOutboxRelay(opts: RelayOptions): OutboxRelay {
  const js = jetstream(opts.nc);
  const names = namesOf(opts.nc);
  const interval = opts.intervalMs ?? 100;
  const batch = opts.batchSize ?? 200;
  const service = opts.service ?? String(opts.log.bindings().service ?? 'unknown');

  let streamReady = false;

  /** A PRODUCER span in the trace of the call that wrote the row; its context travels in the headers. */
  function publish(row: OutboxRow): Promise<unknown> {
    return tracer.startActiveSpan(
      `${row.subject} publish`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.destination.name': row.subject,
          'messaging.operation.type': 'publish',
          'messaging.message.id': row.id,
        },
      },
      deserializeTraceContext(row.trace_context),
      async (span) => {
        try {
          const h = headers();
          injectTraceContext(h);
          return await js.publish(names.event(row.subject), JSON.stringify(row.payload), {
            msgID: row.id,
            headers: h,
          });
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  async function relayOnce(): Promise<number> {
    if (!streamReady) {
      await ensureEventsStream(opts.nc);
      streamReady = true;
    }
    const em = opts.orm.em.fork();
    return em.transactional(async (tx) => {
      const rows = await tx.execute<OutboxRow[]>(
        `SELECT id, subject, payload, trace_context FROM outbox
          WHERE published_at IS NULL ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED`,
        [batch],
      );
      if (rows.length === 0) return 0;
      await Promise.all(rows.map(publish));
      // MikroORM inlines parameters and spreads an array into a list: `IN (?)`, never `ANY(?::uuid[])`.
      await tx.execute('UPDATE outbox SET published_at = now() WHERE id IN (?)', [rows.map((r) => r.id)]);
      outboxPublished.inc({ service }, rows.length);
      return rows.length;
    });
  }

  const loop = startPollLoop({
    once: relayOnce,
    intervalMs: interval,
    onError: (err) => opts.log.warn({ err }, 'outbox relay failed; will retry'),
  });

  async function backlog(): Promise<{ pending: number; oldestSeconds: number }> {
    const [row] = await opts.orm.em.fork().execute<{ pending: number; oldest: number | null }[]>(
      `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float AS oldest
           FROM outbox WHERE published_at IS NULL`,
    );
    return { pending: row.pending, oldestSeconds: row.oldest ?? 0 };
  }
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
