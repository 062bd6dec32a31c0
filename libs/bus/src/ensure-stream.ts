import { type JetStreamManager, jetstreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

const ensured = new WeakMap<NatsConnection, Map<string, Promise<JetStreamManager>>>();

/**
 * Creates the stream `name` once per connection, or finds it when it already exists (with another
 * configuration, or made by a role that may create it when this one may not), and gives the
 * connection's stream manager. A failure is not remembered: the next call tries again.
 */
export function ensureStreamOnce(
  nc: NatsConnection,
  name: string,
  config: (jsm: JetStreamManager) => Promise<Partial<StreamConfig>> | Partial<StreamConfig>,
): Promise<JetStreamManager> {
  let streams = ensured.get(nc);
  if (!streams) {
    streams = new Map();
    ensured.set(nc, streams);
  }
  const known = streams.get(name);
  if (known) return known;
  const pending = (async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ ...(await config(jsm)), name }).catch(async (err) => {
      await jsm.streams.info(name).catch(() => {
        throw err;
      });
    });
    return jsm;
  })();
  const own = streams;
  pending.catch(() => own.delete(name));
  own.set(name, pending);
  return pending;
}
