import { trace } from '@opentelemetry/api';

export { createLogger, type Logger } from './logger.ts';
export {
  collectProcessMetrics,
  counter,
  gauge,
  histogram,
  LATENCY_BUCKETS,
  type MetricsServer,
  metricsRegistry,
  oneReadPerScrape,
  renderMetrics,
  startMetricsServer,
} from './metrics.ts';
export {
  deserializeTraceContext,
  extractTraceContext,
  type HeaderCarrier,
  injectTraceContext,
  serializeTraceContext,
} from './propagation.ts';

export const tracer = trace.getTracer('coin-rewards');
export { onProcessExit, runExitHooks } from './shutdown-hooks.ts';
