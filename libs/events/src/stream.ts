import { type JetStreamManager, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

export const EVENTS_STREAM = 'EVENTS';

const DUPLICATE_WINDOW_NS = 10 * 60 * 1e9;
const MAX_AGE_NS = 30 * 24 * 3600 * 1e9;

/**
 * The one stream every fact goes through (`events.<service>.<fact>`). Creating it is idempotent,
 * so every process that publishes or consumes ensures it at start.
 */
export async function ensureEventsStream(nc: NatsConnection): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: EVENTS_STREAM,
    subjects: ['events.>'],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: DUPLICATE_WINDOW_NS,
    max_age: MAX_AGE_NS,
  };
  try {
    await jsm.streams.info(EVENTS_STREAM);
    await jsm.streams.update(EVENTS_STREAM, config);
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // Another process created it between our look-up and our add.
      await jsm.streams.info(EVENTS_STREAM).catch(() => {
        throw err;
      });
    }
  }
  return jsm;
}
