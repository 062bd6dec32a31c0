import { type Attributes, type Context, context, type Span, type SpanKind, trace } from '@opentelemetry/api';

export const tracer = trace.getTracer('coin-rewards');

export interface MessagingSpan {
  /** What the span does to the subject, also the end of its name: `<subject> request`. */
  verb: 'request' | 'publish' | 'process';
  /** OpenTelemetry's `messaging.operation.type`. */
  operation: 'send' | 'publish' | 'process';
  kind: SpanKind;
  /** The trace it continues, by default the active one. */
  parent?: Context;
  attributes?: Attributes;
}

/**
 * Runs `fn` in a span of a NATS message on `subject`, named and attributed by OpenTelemetry's
 * messaging conventions, and ends the span when `fn` settles.
 */
export function messagingSpan<T>(
  subject: string,
  how: MessagingSpan,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const attributes: Attributes = {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    'messaging.operation.type': how.operation,
    ...how.attributes,
  };
  return tracer.startActiveSpan(
    `${subject} ${how.verb}`,
    { kind: how.kind, attributes },
    how.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } finally {
        span.end();
      }
    },
  );
}
