import { register } from 'node:module';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { markTracingStarted } from './tracing-state.ts';

export interface TracingOptions {
  serviceName: string;
  /** Where spans go; by default the OTLP exporter configured by the `OTEL_EXPORTER_OTLP_*` variables. */
  spanProcessors?: SpanProcessor[];
}

export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK with the pg, ioredis and undici instrumentations. Under ESM they
 * see nothing unless the import-in-the-middle loader hook is registered before those packages are
 * imported, so this must run first in the process (see `register.ts`), or, in a test, before the
 * code under test is imported. Only the instrumented packages are wrapped by the hook.
 * Metrics are Prometheus (prom-client) and logs are pino on stdout: the SDK exports traces only.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: opts.serviceName,
    spanProcessors: opts.spanProcessors,
    instrumentations: [
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  markTracingStarted();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}
