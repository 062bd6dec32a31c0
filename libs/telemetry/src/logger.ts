import { trace } from '@opentelemetry/api';
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/**
 * JSON logs on stdout (or `destination`); every line written inside a span carries its trace and
 * span ids, so a log line leads to its trace and back.
 */
export function createLogger(name: string, level: string, destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
