import type { Logger } from '@coin/telemetry';
import type { JsMsg } from '@nats-io/jetstream';
import type { z } from 'zod';

/**
 * Deliveries of an event that keeps failing (Postgres or Redis down): about 45 minutes of retries
 * with the consumer's capped backoff, so an outage of either does not park good events.
 */
export const RETRY_DELIVERIES = 100;

/**
 * An event that does not match its pinned schema can never succeed: it is logged in full and
 * acknowledged (it stays in the stream, by sequence number, for whoever investigates).
 */
export function dropMalformed(log: Logger, msg: JsMsg, error: z.ZodError): void {
  log.error(
    { subject: msg.subject, seq: msg.seq, issues: error.issues, payload: msg.string() },
    'malformed event skipped',
  );
}
