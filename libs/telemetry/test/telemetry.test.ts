import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counter, createLogger, startMetricsServer, tracer } from '../src/index.ts';
import { startTracing, type Tracing } from '../src/tracing.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/emit-span.ts', import.meta.url));
const silent = createLogger('test', 'silent');

describe('logs', () => {
  let tracing: Tracing;
  beforeAll(async () => {
    tracing = await startTracing({ serviceName: 'telemetry-test', spanProcessors: [] });
  });
  afterAll(() => tracing.shutdown());

  it('carry the trace and span ids of the active span, and none outside a span', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const log = createLogger('svc', 'info', sink);
    let ids: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan('work', (span) => {
      ids = span.spanContext();
      log.info('inside');
      span.end();
    });
    log.info('outside');
    expect(lines[0]).toMatchObject({
      msg: 'inside',
      service: 'svc',
      trace_id: ids!.traceId,
      span_id: ids!.spanId,
    });
    expect(ids!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(lines[1].msg).toBe('outside');
    expect(lines[1]).not.toHaveProperty('trace_id');
  });
});

describe('metrics server', () => {
  it('serves the registry on /metrics, liveness on /health and readiness on /ready', async () => {
    let ready = false;
    const server = await startMetricsServer({ port: 0, log: silent, ready: () => ready });
    try {
      const hits = counter({ name: 'coin_test_hits_total', help: 'test', labelNames: ['kind'] as const });
      hits.inc({ kind: 'a' }, 3);
      const metrics = await fetch(server.url);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      const text = await metrics.text();
      expect(text).toContain('coin_test_hits_total{kind="a"} 3');
      expect(text).toContain('process_cpu_user_seconds_total');
      const base = server.url.replace('/metrics', '');
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect((await fetch(`${base}/ready`)).status).toBe(503);
      ready = true;
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      expect((await fetch(`${base}/other`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('returns the existing metric when one is declared twice (several services in one process)', () => {
    const a = counter({ name: 'coin_test_twice_total', help: 'test' });
    expect(counter({ name: 'coin_test_twice_total', help: 'test' })).toBe(a);
  });
});

describe('the --import register hook', () => {
  let receiver: Server;
  let endpoint: string;
  const received: Buffer[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') received.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  async function runFixture(env: Record<string, string>): Promise<{ provider: string }> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', '@coin/telemetry/register', FIXTURE],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env } },
    );
    return JSON.parse(stdout.trim().split('\n')[0]);
  }

  it('does nothing without OTEL_EXPORTER_OTLP_ENDPOINT: no SDK, nothing sent', async () => {
    const before = received.length;
    const out = await runFixture({});
    expect(out.provider).toBe('NoopTracerProvider');
    expect(received.length).toBe(before);
  });

  it('exports spans over OTLP when the endpoint is set, flushing them at stop', async () => {
    const out = await runFixture({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'fixture' });
    expect(out.provider).not.toBe('NoopTracerProvider');
    const body = Buffer.concat(received).toString('latin1');
    expect(body).toContain('fixture-span');
    expect(body).toContain('fixture');
  });
});
