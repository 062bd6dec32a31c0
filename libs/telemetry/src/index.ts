import { trace } from '@opentelemetry/api';

export { createLogger, type Logger } from './logger.ts';
export {
  collectProcessMetrics,
  counter,
  gauge,
  histogram,
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
export { runExitHooks } from './shutdown-hooks.ts';
