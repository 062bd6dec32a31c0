import { namesOf } from '@coin/bus';
import type { EntityManager } from '@coin/db';
import { extractTraceContext, type Logger, tracer } from '@coin/telemetry';
import { AckPolicy, DeliverPolicy, type JsMsg, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { consumerDuration, consumerOutcomes, watchConsumer } from './metrics.ts';
import { ensureEventsStream } from './stream.ts';

export interface ConsumerOptions<T> {
  nc: NatsConnection;
  log: Logger;
  /** Durable name: one per consuming service and purpose; replicas share it. */
  durable: string;
  subject: string;
  handle: (event: T, msg: JsMsg) => Promise<void>;
  maxDeliver?: number;
  ackWaitMs?: number;
  concurrency?: number;
}

export interface RunningConsumer {
  pending(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A durable pull consumer with explicit acks. A handler that throws gets the message again with a
 * growing delay; after `maxDeliver` attempts the message is parked (terminated and logged) instead
 * of blocking the stream for ever.
 */
export async function startConsumer<T>(opts: ConsumerOptions<T>): Promise<RunningConsumer> {
  const jsm = await ensureEventsStream(opts.nc);
  const maxDeliver = opts.maxDeliver ?? 10;
  const ackWaitMs = opts.ackWaitMs ?? 30_000;
  const names = namesOf(opts.nc);
  const stream = names.stream;
  const durable = names.durable(opts.durable);
  await jsm.consumers.add(stream, {
    durable_name: durable,
    filter_subject: names.event(opts.subject),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ackWaitMs * 1e6,
    max_deliver: maxDeliver,
    max_ack_pending: 10_000,
  });
  const consumer = await jetstream(opts.nc).consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: Math.max(64, (opts.concurrency ?? 1) * 4) });
  const active = new Set<Promise<void>>();
  const limit = opts.concurrency ?? 1;

  async function process(msg: JsMsg): Promise<void> {
    const parent = extractTraceContext(msg.headers);
    await context.with(parent, () =>
      tracer.startActiveSpan(
        `${msg.subject} process`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': msg.subject,
            'messaging.consumer.group.name': opts.durable,
          },
        },
        async (span) => {
          const began = performance.now();
          try {
            await opts.handle(msg.json<T>(), msg);
            msg.ack();
            consumerOutcomes.inc({ durable: opts.durable, outcome: 'ack' });
          } catch (err) {
            span.setStatus({ code: SpanStatusCode.ERROR });
            const attempt = msg.info.deliveryCount;
            const parked = attempt >= maxDeliver;
            consumerOutcomes.inc({ durable: opts.durable, outcome: parked ? 'parked' : 'retry' });
            if (parked) {
              opts.log.error(
                { err, subject: msg.subject, seq: msg.seq, attempt },
                'event parked after max deliveries',
              );
              msg.term('parked after max deliveries');
            } else {
              opts.log.warn(
                { err, subject: msg.subject, seq: msg.seq, attempt },
                'event failed; will be redelivered',
              );
              msg.nak(Math.min(30_000, 100 * 2 ** attempt));
            }
          } finally {
            consumerDuration.observe({ durable: opts.durable }, (performance.now() - began) / 1000);
            span.end();
          }
        },
      ),
    );
  }

  const loop = (async () => {
    for await (const msg of messages) {
      const p = process(msg).finally(() => active.delete(p));
      active.add(p);
      if (active.size >= limit) await Promise.race(active);
    }
    await Promise.allSettled([...active]);
  })();

  async function pending(): Promise<number> {
    const info = await consumer.info();
    return info.num_pending + info.num_ack_pending;
  }
  const unwatch = watchConsumer(opts.durable, pending);

  return {
    pending,
    async stop() {
      unwatch();
      await messages.close();
      await loop;
    },
  };
}

/**
 * Runs `apply` in a transaction only if this consumer has not applied `eventId` before; the id is
 * recorded in the same transaction, so a redelivered event has no second effect.
 */
export async function applyOnce(
  em: EntityManager,
  consumer: string,
  eventId: string,
  apply: (tx: EntityManager) => Promise<void>,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const inserted = await tx.execute<{ event_id: string }[]>(
      'INSERT INTO applied_events (consumer, event_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING event_id',
      [consumer, eventId],
    );
    if (inserted.length === 0) return false;
    await apply(tx);
    return true;
  });
}
