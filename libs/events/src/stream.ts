import { namesOf } from '@coin/bus';
import { type JetStreamManager, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

const DUPLICATE_WINDOW_NS = 10 * 60 * 1e9;
const MAX_AGE_NS = 30 * 24 * 3600 * 1e9;

/**
 * The one stream every fact goes through (`events.<service>.<fact>`). Creating it is idempotent,
 * so every process that publishes or consumes ensures it at start.
 */
export async function ensureEventsStream(nc: NatsConnection): Promise<JetStreamManager> {
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
  try {
    await jsm.streams.info(name);
    await jsm.streams.update(name, config);
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // Another process created it between our look-up and our add.
      await jsm.streams.info(name).catch(() => {
        throw err;
      });
    }
  }
  return jsm;
}
