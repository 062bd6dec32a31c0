import { publishToStream } from '@coin/bus';
import { deserializeTraceContext, injectTraceContext, messagingSpan } from '@coin/telemetry';
import { errors, headers, type NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';

export interface OutboxRow {
  id: string;
  subject: string;
  /** The event as its jsonb column prints it: published as read, never parsed here. */
  payload: string;
  trace_context: Record<string, string>;
  attempts: number;
}

const encoder = new TextEncoder();

/** Errors no retry can change (the payload is over the server's limit): the row is parked at once. */
export function refusedForGood(err: unknown): boolean {
  return err instanceof errors.InvalidArgumentError;
}

/** Publishes the row to `subject` (its subject under the bus namespace) in a PRODUCER span  in the trace of the call that wrote it; the span's context travels in the headers. */
export function publishRow(
  nc: NatsConnection,
  subject: string,
  row: OutboxRow,
  timeoutMs: number,
): Promise<unknown> {
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
        return await publishToStream(nc, subject, encoder.encode(row.payload), h, row.id, timeoutMs);
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      }
    },
  );
}
