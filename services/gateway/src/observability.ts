import { collectProcessMetrics, histogram, renderMetrics, tracingStarted } from '@coin/telemetry';
import type { FastifyInstance } from 'fastify';

const requestDuration = histogram({
  name: 'coin_http_request_duration_seconds',
  help: 'Time the gateway took to answer an HTTP request, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
});

/** Probes and scrapes every few seconds would drown the traces that matter. */
const UNTRACED = /^\/(health|ready|metrics)(\?|$)/;

/**
 * Traces (a SERVER span per request, continuing a caller's `traceparent`; only when the
 * OpenTelemetry SDK was started, as nothing would be recorded) and the request latency histogram.
 * Registered before the routes, which the tracing plugin wraps as they are added.
 */
export async function registerObservability(app: FastifyInstance): Promise<void> {
  collectProcessMetrics();
  if (tracingStarted()) {
    // Loaded only when traced: it and the OpenTelemetry core it brings are source a process without
    // tracing would keep in its heap (docs/decisions/2026-11-23-modules-loaded-on-first-use.md).
    const { FastifyOtelInstrumentation } = await import('@fastify/otel');
    const otel = new FastifyOtelInstrumentation({
      // One span per request and one for its handler; a span per plugin hook is noise here.
      instrumentHooks: false,
      ignorePaths: ({ url }) => UNTRACED.test(url),
    });
    await app.register(otel.plugin());
  }

  app.addHook('onResponse', async (request, reply) => {
    requestDuration.observe(
      {
        method: request.method,
        // The route's pattern, not the path: ids in paths would make a series per id.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

/** `GET /metrics`: the process's Prometheus registry. */
export function registerMetricsRoute(app: FastifyInstance): void {
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await renderMetrics();
    return reply.type(contentType).send(body);
  });
}
