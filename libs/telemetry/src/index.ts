export { createLogger, type Logger } from './logger.ts';
export { type MessagingSpan, messagingSpan, tracer } from './messaging-span.ts';
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
export { type ScrapedGauge, type ScrapedGauges, scrapedGauges } from './scraped-gauges.ts';
export { runExitHooks } from './shutdown-hooks.ts';
