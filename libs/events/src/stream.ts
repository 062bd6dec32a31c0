import { namesOf } from '@coin/bus/connect';
import { type JetStreamManager, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

const DUPLICATE_WINDOW_NS = 10 * 60 * 1e9;
/** How long the events stream keeps a message, delivered or not. */
export const EVENTS_MAX_AGE_DAYS = 30;
const MAX_AGE_NS = EVENTS_MAX_AGE_DAYS * 24 * 3600 * 1e9;

/** The replica count a process configured for its streams (EVENTS_STREAM_REPLICAS), per connection. */
const replicasOf = new WeakMap<NatsConnection, number>();

/**
 * Replicas for a companion stream (parked events): the configured count, or for a process that
 * configures none (an operator's command) the events stream's own, so it is kept as safely.
 */
export async function companionReplicas(nc: NatsConnection, jsm: JetStreamManager): Promise<number> {
  const configured = replicasOf.get(nc);
  if (configured !== undefined) return configured;
  const events = await jsm.streams.info(namesOf(nc).stream).catch(() => undefined);
  return events?.config.num_replicas ?? 1;
}

/**
 * The one stream every fact goes through (`events.<service>.<fact>`). Creating it is idempotent,
 * so every process that publishes or consumes ensures it at start. `replicas` (the process's
 * EVENTS_STREAM_REPLICAS, 3 on a 3-node cluster) is remembered for the connection; a call without it
 * keeps the replicas the stream has, so only configured start-ups change them.
 */
export async function ensureEventsStream(
  nc: NatsConnection,
  opts: { replicas?: number } = {},
): Promise<JetStreamManager> {
  if (opts.replicas !== undefined) replicasOf.set(nc, opts.replicas);
  const jsm = await jetstreamManager(nc);
  const names = namesOf(nc);
  const name = names.stream;
  const config = {
    name,
    subjects: [names.event('events.>')],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: DUPLICATE_WINDOW_NS,
    // A namespaced stream belongs to a test stack or a short-lived environment.
    max_age: names.namespace ? 3600 * 1e9 : MAX_AGE_NS,
  };
  const existing = await jsm.streams.info(name).catch(() => undefined);
  if (existing) {
    const replicas = opts.replicas ?? existing.config.num_replicas;
    // A single server refuses more than 1 replica on creation, but takes it on update and still keeps
    // one copy: refuse here too, so the configuration does not promise what the server cannot hold.
    if (replicas > 1 && !existing.cluster)
      throw new Error(
        `EVENTS_STREAM_REPLICAS is ${replicas} but the NATS server is not clustered: replicas > 1 not supported`,
      );
    await jsm.streams.update(name, { ...config, num_replicas: replicas });
    return jsm;
  }
  try {
    // Unconfigured: 1, what a single server holds.
    await jsm.streams.add({ ...config, num_replicas: replicasOf.get(nc) ?? 1 });
  } catch (err) {
    // Another process created it between our look-up and our add.
    await jsm.streams.info(name).catch(() => {
      throw err;
    });
  }
  return jsm;
}

/**
 * What a service does at start instead of creating the stream: finds it, or stops naming the
 * operator's set-up that must run first (services may read streams, not create them).
 */
export async function requireEventsStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const name = namesOf(nc).stream;
  await jsm.streams.info(name).catch((err: Error) => {
    throw new Error(
      `the events stream ${name} is not there (${err.message}): the operator's bus set-up (npm run bus:setup) must run before the services start`,
    );
  });
}
