import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Counter,
  type CounterConfiguration,
  collectDefaultMetrics,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  register,
} from 'prom-client';
import type { Logger } from './logger.ts';

/** The process's one registry: every metric below is registered in it, and `/metrics` serves it. */
export const metricsRegistry = register;

/** Seconds; from a cache hit to a slow transaction, and past the default 5 s request timeout. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let defaultsCollected = false;

/** Node's own metrics (event loop lag, heap, GC, CPU), collected once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register });
}

/*
 * Metrics are created where they are used, at module load or at start. Several services can run in
 * one process (the tests do), so creating a metric that exists returns the existing one instead of
 * failing; its name, help and labels are the same by construction.
 */
export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return (register.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter(config);
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  return (register.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge(config);
}

export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  return (
    (register.getSingleMetric(config.name) as Histogram<L> | undefined) ??
    new Histogram({ buckets: LATENCY_BUCKETS, ...config })
  );
}

/**
 * Several gauges often report parts of one reading (a backlog's size and its oldest age): this
 * shares one read between the collects of a scrape instead of querying once per gauge.
 */
export function oneReadPerScrape<T>(read: () => Promise<T>, reuseMs = 1000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || performance.now() - last.at > reuseMs) {
      const value = read();
      last = { at: performance.now(), value };
      value.catch(() => {
        last = undefined;
      });
    }
    return last.value;
  };
}

/** Prometheus text of every metric of this process. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: register.contentType, body: await register.metrics() };
}

export interface MetricsServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * A small HTTP server for a process whose API is not HTTP: `GET /metrics` (Prometheus text),
 * `GET /health` (the process answers: a liveness probe) and `GET /ready` (200 while `ready()` says
 * so, 503 otherwise: a readiness probe). Port 0 picks a free port (tests).
 */
const readiness = new Set<() => boolean>();

export async function startMetricsServer(opts: {
  port: number;
  host?: string;
  log: Logger;
  ready?: () => boolean;
}): Promise<MetricsServer> {
  collectProcessMetrics();
  const isReady = opts.ready ?? (() => true);
  readiness.add(isReady);
  // Scraped even while /ready answers 503, so an alert sees a replica that runs but does not serve.
  gauge({
    name: 'coin_ready',
    help: 'Whether this process answers /ready with 200 (1) or 503 (0)',
    collect() {
      this.set([...readiness].every((ready) => ready()) ? 1 : 0);
    },
  });
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('up\n');
      return;
    }
    if (req.method === 'GET' && path === '/ready') {
      const ready = isReady();
      res
        .writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' })
        .end(ready ? 'ready\n' : 'not ready\n');
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (err) => {
        opts.log.error({ err }, 'metrics could not be collected');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/metrics`;
  opts.log.info({ url }, 'metrics listening');
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        readiness.delete(isReady);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
