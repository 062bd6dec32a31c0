import { deserializeTraceContext, injectTraceContext, messagingSpan } from '@coin/telemetry';
import type { JetStreamClient } from '@nats-io/jetstream';
import { errors, headers } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';

export interface OutboxRow {
  id: string;
  subject: string;
  payload: Record<string, unknown>;
  trace_context: Record<string, string>;
  attempts: number;
}

/** Errors no retry can change (the payload is over the server's limit): the row is parked at once. */
export function refusedForGood(err: unknown): boolean {
  return err instanceof errors.InvalidArgumentError;
}

/** Publishes the row to `subject` (its subject under the bus namespace) in a PRODUCER span  in the trace of the call that wrote it; the span's context travels in the headers. */
export function publishRow(js: JetStreamClient, subject: string, row: OutboxRow): Promise<unknown> {
  return messagingSpan(
    row.subject,
    {
      verb: 'publish',
      operation: 'publish',
      kind: SpanKind.PRODUCER,
      parent: deserializeTraceContext(row.trace_context),
      attributes: { 'messaging.message.id': row.id },
    },
    async (span) => {
      try {
        const h = headers();
        injectTraceContext(h);
        return await js.publish(subject, JSON.stringify(row.payload), {
          msgID: row.id,
          headers: h,
        });
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      }
    },
  );
}
