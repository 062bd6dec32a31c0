import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { namesOf } from './namespace.ts';
import { decodeJson, encodeJson } from './wire.ts';

/**
 * A hint every replica listening hears at once (core NATS: no queue group, not stored), for "what
 * you cached is stale". A replica that is disconnected misses it, so a cache that listens still
 * needs an expiry of its own; the hint only makes a change apply at once instead of at expiry.
 */
export function broadcast<T>(nc: NatsConnection, subject: string, schema: z.ZodType<T>, payload: T): void {
  nc.publish(namesOf(nc).subject(subject), encodeJson(schema.parse(payload)));
}

/** Calls `fn` with each hint on `subject` that matches `schema`; others are ignored. */
export function onBroadcast<T>(
  nc: NatsConnection,
  subject: string,
  schema: z.ZodType<T>,
  fn: (payload: T) => void,
): { stop(): void } {
  const sub = nc.subscribe(namesOf(nc).subject(subject), {
    callback: (err, msg) => {
      if (err) return;
      let parsed: ReturnType<typeof schema.safeParse>;
      try {
        parsed = schema.safeParse(decodeJson(msg.data));
      } catch {
        return;
      }
      if (parsed.success) fn(parsed.data);
    },
  });
  return { stop: () => sub.unsubscribe() };
}
