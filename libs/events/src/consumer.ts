import { namesOf } from '@coin/bus';
import { extractTraceContext, type Logger, messagingSpan } from '@coin/telemetry';
import { type JsMsg, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { z } from 'zod';
import { deliveryOwner } from './delivery-owner.ts';
import { consumerDuration, consumerOutcomes, watchConsumer, watchParked } from './metrics.ts';
import { park, parkedCounts, REPLAY_FOR_HEADER } from './parked.ts';
import { type EventMeta, parseEvent } from './parse-event.ts';
import { DEFAULT_RETRY, RetryClock, type RetryPolicy } from './retry-clock.ts';

interface CommonOptions<S extends z.ZodType> {
  nc: NatsConnection;
  log: Logger;
  /** Durable name: one per consuming service and purpose; replicas share it. */
  durable: string;
  subject: string;
  /** The event's contract: a payload it refuses is parked at once, unhandled. */
  schema: S;
  /** Handler runs (single events or batches) at once in this process. */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** The clock of the retry window (tests move it forward instead of waiting a day). */
  now?: () => number;
  /**
   * Runs before an event that kept failing is parked (not one that did not parse); when it throws,
   * the event is retried instead. A consumer that applies events once passes `keepAppliedId`.
   */
  beforePark?: (event: z.output<S>) => Promise<void>;
}

export type ConsumerOptions<S extends z.ZodType> = CommonOptions<S> &
  (
    | { handle: (event: z.output<S>, meta: EventMeta) => Promise<void> }
    | {
        /** Up to `size` events at once, gathered for at most `lingerMs`; a redelivered event comes alone. */
        batch: { size: number; lingerMs?: number };
        handleBatch: (events: z.output<S>[], metas: EventMeta[]) => Promise<void>;
      }
  );

export interface RunningConsumer {
  pending(): Promise<number>;
  stop(): Promise<void>;
}

interface Item<T> {
  msg: JsMsg;
  event: T;
  meta: EventMeta;
}

/**
 * The one consumer policy. A durable pull consumer with explicit acks and no delivery limit, created
 * by the operator's set-up (set-up.ts) and bound here:
 * - each payload is parsed with its contract; one that does not parse is parked at once;
 * - a handler that throws gets its events again with jittered, capped backoff for `retry.forMs`
 *   (24 hours) after their first delivery, and then they are parked;
 * - parked events are stored in the PARKED stream (parked.ts), counted, listed and replayed by the
 *   operator; nothing is dropped;
 * - handlers run at most `concurrency` at a time and keep their messages in progress while they
 *   run, so a long handler is never redelivered to another replica meanwhile.
 */
export async function startConsumer<S extends z.ZodType>(opts: ConsumerOptions<S>): Promise<RunningConsumer> {
  type T = z.output<S>;
  const { nc, log, durable: label } = opts;
  const limit = opts.concurrency ?? 1;
  const batchSize = 'batch' in opts ? opts.batch.size : 1;
  const lingerMs = 'batch' in opts ? (opts.batch.lingerMs ?? 20) : 0;
  const handleAll =
    'batch' in opts
      ? opts.handleBatch
      : async (events: T[], metas: EventMeta[]) => opts.handle(events[0], metas[0]);
  const clock = new RetryClock({ ...DEFAULT_RETRY, ...opts.retry }, opts.now ?? Date.now);
  const names = namesOf(nc);
  const stream = names.stream;
  const durable = names.durable(label);
  const filter = names.event(opts.subject);
  const consumer = await jetstream(nc)
    .consumers.get(stream, durable)
    .catch((err: Error) => {
      throw new Error(
        `the durable ${durable} is not there (${err.message}): the operator's bus set-up (npm run bus:setup) creates every durable before the services start`,
      );
    });
  // Bound, not created: the set-up gave it its filter and its ack wait (services may not set them).
  const { config } = await consumer.info(true);
  if (config.filter_subject !== filter)
    throw new Error(
      `the durable ${durable} reads ${config.filter_subject}, not ${filter}: run the bus set-up`,
    );
  const ackWaitMs = (config.ack_wait ?? 30e9) / 1e6;
  const messages = await consumer.consume({ max_messages: Math.max(64, limit * batchSize * 2) });
  const active = new Set<Promise<void>>();
  let buffer: Item<T>[] = [];
  let lingering: NodeJS.Timeout | undefined;

  async function parkOne(msg: JsMsg, reason: string, err?: unknown): Promise<void> {
    try {
      await park(nc, label, msg, reason);
      msg.term(reason.slice(0, 200));
      consumerOutcomes.inc({ durable: label, outcome: 'parked' });
      log.error({ err, subject: msg.subject, seq: msg.seq, reason }, 'event parked');
    } catch (parkErr) {
      log.error(
        { err: parkErr, subject: msg.subject, seq: msg.seq },
        'event could not be parked; will retry',
      );
      msg.nak(clock.backoff(msg.info.deliveryCount));
    }
  }

  /** The event, or undefined when the message is not this consumer's to handle. */
  async function admit(msg: JsMsg): Promise<Item<T> | undefined> {
    const owner = deliveryOwner({ subject: msg.subject, consumer: msg.info.consumer }, durable, filter);
    if (owner !== 'ours') {
      // Another durable's message is left unsettled: its own consumer delivers it again after its
      // ack wait. One of ours outside the filter is nobody's here: acknowledged, never applied.
      if (owner === 'outside the filter') msg.ack();
      consumerOutcomes.inc({ durable: label, outcome: 'foreign' });
      log.error(
        { subject: msg.subject, seq: msg.seq, deliveredBy: msg.info.consumer, owner },
        'event delivered to the wrong consumer: not handled',
      );
      return undefined;
    }
    const replayFor = msg.headers?.get(REPLAY_FOR_HEADER);
    if (replayFor && replayFor !== label) {
      msg.ack();
      return undefined;
    }
    const parsed = parseEvent(opts.schema, msg);
    if (parsed.ok) return { msg, event: parsed.event, meta: parsed.meta };
    await parkOne(msg, parsed.reason);
    return undefined;
  }

  /** Parks an event that kept failing, once `beforePark` has run; retries it when that throws. */
  async function parkFailed({ msg, event }: Item<T>, err: unknown): Promise<void> {
    try {
      await opts.beforePark?.(event);
    } catch (keepErr) {
      log.error(
        { err: keepErr, subject: msg.subject, seq: msg.seq },
        'event not parked: beforePark failed (its applied id not pinned); will retry',
      );
      msg.nak(clock.backoff(msg.info.deliveryCount));
      return;
    }
    await parkOne(msg, `failed for ${opts.retry?.forMs ?? DEFAULT_RETRY.forMs} ms: ${String(err)}`, err);
  }

  async function failed(items: Item<T>[], err: unknown): Promise<void> {
    for (const item of items) {
      const { msg } = item;
      const decision = clock.failed(msg.seq, msg.info.deliveryCount);
      if (decision.park) {
        await parkFailed(item, err);
      } else {
        consumerOutcomes.inc({ durable: label, outcome: 'retry' });
        log.warn(
          { err, subject: msg.subject, seq: msg.seq, deliveries: msg.info.deliveryCount },
          'event failed; will be redelivered',
        );
        msg.nak(decision.delayMs);
      }
    }
  }

  async function handleItems(items: Item<T>[]): Promise<void> {
    const first = items[0].msg;
    const parent = extractTraceContext(first.headers);
    const attributes = {
      'messaging.consumer.group.name': label,
      'messaging.batch.message_count': items.length,
    };
    await messagingSpan(
      first.subject,
      { verb: 'process', operation: 'process', kind: SpanKind.CONSUMER, parent, attributes },
      async (span) => {
        const began = performance.now();
        for (const { msg } of items) clock.tried(msg.seq);
        const keepAlive = setInterval(() => {
          for (const { msg } of items) msg.working();
        }, ackWaitMs / 3);
        try {
          await handleAll(
            items.map((i) => i.event),
            items.map((i) => i.meta),
          );
          for (const { msg } of items) {
            msg.ack();
            clock.done(msg.seq);
          }
          consumerOutcomes.inc({ durable: label, outcome: 'ack' }, items.length);
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          await failed(items, err);
        } finally {
          clearInterval(keepAlive);
          consumerDuration.observe({ durable: label }, (performance.now() - began) / 1000);
        }
      },
    );
  }

  async function run(items: Item<T>[]): Promise<void> {
    if (items.length === 0) return;
    // No await between the check and the add: two waiters cannot both take the last slot.
    while (active.size >= limit) await Promise.race(active);
    const p = handleItems(items).finally(() => active.delete(p));
    active.add(p);
  }

  function flush(): Promise<void> {
    clearTimeout(lingering);
    lingering = undefined;
    const items = buffer;
    buffer = [];
    return run(items);
  }

  const loop = (async () => {
    for await (const msg of messages) {
      const item = await admit(msg);
      if (!item) continue;
      // A redelivered event is tried alone, so one that keeps failing never holds back a batch.
      if (batchSize === 1 || item.meta.deliveries > 1) {
        await run([item]);
        continue;
      }
      buffer.push(item);
      if (buffer.length >= batchSize) await flush();
      else lingering ??= setTimeout(() => void flush(), lingerMs);
    }
    await flush();
    await Promise.allSettled([...active]);
  })();

  async function pending(): Promise<number> {
    const info = await consumer.info();
    return info.num_pending + info.num_ack_pending;
  }
  const unwatch = watchConsumer(label, pending);
  const unwatchParked = watchParked(label, async () => (await parkedCounts(nc)).get(label) ?? 0);

  return {
    pending,
    async stop() {
      unwatch();
      unwatchParked();
      await messages.close();
      await loop;
    },
  };
}
