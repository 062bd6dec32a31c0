export { createLogger, type Logger } from './logger.ts';
export { messagingSpan, tracer } from './messaging-span.ts';
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
  injectTraceContext,
  serializeTraceContext,
} from './propagation.ts';
export { type ScrapedGauges, scrapedGauges } from './scraped-gauges.ts';
export { runExitHooks } from './shutdown-hooks.ts';
export { tracingStarted } from './tracing-state.ts';
