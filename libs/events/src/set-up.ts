import { ensurePayloadStream, namesOf } from '@coin/bus';
import { AckPolicy, DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureParkedStream } from './parked.ts';
import { ensureEventsStream } from './stream.ts';

/** A durable consumer as the contracts list it (EVENT_CONSUMERS): its name and its one subject. */
export interface DurableSpec {
  durable: string;
  subject: string;
  /**
   * Where the durable starts when the set-up creates it: every event the stream holds (the default),
   * or only those published from then on (a consumer added to a subject whose history it must not
   * act on). An existing durable keeps its place.
   */
  startAt?: 'all' | 'new';
}

export interface BusSetUpOptions {
  /** EVENTS_STREAM_REPLICAS: 3 on a 3-node cluster; unset keeps the stream's (1 on creation). */
  replicas?: number;
  /** Redelivery of an event whose process died (a running handler keeps its events alive). */
  ackWaitMs?: number;
  /** The payload stream's bound: the oldest payloads go when it is full. */
  payloadMaxBytes?: number;
}

const DEFAULT_ACK_WAIT_MS = 30_000;
const DEFAULT_PAYLOAD_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Creates the durable `spec` names on the events stream with its one filter, or brings an existing
 * one to this configuration. The operator's set-up does this, never a service: a service may only
 * pull from and acknowledge its own durables (scripts/nats-auth), so it cannot choose a filter or a
 * delivery subject.
 */
export async function createDurable(
  nc: NatsConnection,
  spec: DurableSpec,
  ackWaitMs = DEFAULT_ACK_WAIT_MS,
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const names = namesOf(nc);
  const durable = names.durable(spec.durable);
  const settings = {
    filter_subject: names.event(spec.subject),
    ack_wait: ackWaitMs * 1e6,
    // Unlimited: the consumer's retry window decides when an event is parked (RetryClock).
    max_deliver: -1,
    // Events waiting out their backoff count as pending: room for a long outage's worth.
    max_ack_pending: 10_000,
  };
  const existing = await jsm.consumers.info(names.stream, durable).catch(() => undefined);
  if (existing) {
    await jsm.consumers.update(names.stream, durable, settings);
    return;
  }
  await jsm.consumers
    .add(names.stream, {
      ...settings,
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: spec.startAt === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
    })
    .catch(async (err) => {
      // Another set-up created it between our look-up and our add.
      await jsm.consumers.info(names.stream, durable).catch(() => {
        throw err;
      });
    });
}

/**
 * The operator's set-up of the bus in the connection's namespace (`npm run bus:setup`, `make up`, the
 * test harness): the events stream, the parked-events stream, the payload stream and every durable.
 * Idempotent; it runs before the services start, which only check that it has.
 */
export async function setUpBus(
  nc: NatsConnection,
  durables: readonly DurableSpec[],
  opts: BusSetUpOptions = {},
): Promise<void> {
  const jsm = await ensureEventsStream(nc, { replicas: opts.replicas });
  await ensureParkedStream(nc);
  const replicas = (await jsm.streams.info(namesOf(nc).stream)).config.num_replicas;
  await ensurePayloadStream(nc, { maxBytes: opts.payloadMaxBytes ?? DEFAULT_PAYLOAD_MAX_BYTES, replicas });
  for (const spec of durables) await createDurable(nc, spec, opts.ackWaitMs);
}
