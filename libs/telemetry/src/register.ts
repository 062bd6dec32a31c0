/**
 * Loaded with `node --import @coin/telemetry/register services/<name>/src/main.ts`, before any
 * other module, so the instrumentations can hook pg, ioredis and undici as they are imported.
 * Without `OTEL_EXPORTER_OTLP_ENDPOINT` (or its traces-only form) it does nothing at all: no SDK,
 * no loader hook, no cost.
 */
import { basename, dirname } from 'node:path';
import { onProcessExit } from './shutdown-hooks.ts';

/** `services/<name>/src/main.ts` → `<name>`; `OTEL_SERVICE_NAME` wins when set. */
function serviceName(): string {
  if (process.env.OTEL_SERVICE_NAME) return process.env.OTEL_SERVICE_NAME;
  const entry = process.argv[1] ?? 'node';
  return basename(dirname(dirname(entry))) || basename(entry);
}

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  const { startTracing } = await import('./tracing.ts');
  const tracing = await startTracing({ serviceName: serviceName() });
  onProcessExit(() => tracing.shutdown());
}
