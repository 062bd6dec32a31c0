import { freePort, type ServiceProcess, type Stack, spawnService } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerBody } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let identity: ServiceProcess | undefined;

beforeAll(async () => {
  stack = await stackWith(['identity'], { AUTH_RATE_LIMIT_MAX: '1000' });
});

afterAll(async () => {
  await identity?.stop();
  await stack?.stop();
});

/** The value of one series in Prometheus text, 0 when it is not there yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

describe('metrics', () => {
  it('the gateway counts requests per route and status, and its NATS calls per operation', async () => {
    const httpOk =
      'coin_http_request_duration_seconds_count{method="POST",route="/api/v1/ufel/partners",status="200"}';
    const httpBad =
      'coin_http_request_duration_seconds_count{method="POST",route="/api/v1/ufel/partners",status="400"}';
    const natsOk =
      'coin_bus_request_duration_seconds_count{service="identity",operation="registerPartner",status="200"}';
    const before = await scrape(`${stack.url}/metrics`);
    for (let i = 0; i < 3; i++)
      expect((await stack.api.post('/api/v1/ufel/partners', partnerBody())).status).toBe(200);
    expect((await stack.api.post('/api/v1/ufel/partners', { ...partnerBody(), email: 'nope' })).status).toBe(
      400,
    );
    const after = await scrape(`${stack.url}/metrics`);
    expect(sample(after, httpOk) - sample(before, httpOk)).toBe(3);
    expect(sample(after, httpBad) - sample(before, httpBad)).toBe(1);
    expect(sample(after, natsOk) - sample(before, natsOk)).toBe(3);
    expect(after).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  it('a service process serves its handler metrics, liveness and readiness on METRICS_PORT', async () => {
    // The spawned process is the only identity replica, so every call below reaches it.
    await stack.stopService('identity');
    const port = await freePort();
    identity = await spawnService('identity', {
      ...stack.env,
      METRICS_PORT: String(port),
      LOG_LEVEL: 'silent',
    });
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);

    const handled =
      'coin_bus_handler_duration_seconds_count{service="identity",operation="registerPartner",status="200"}';
    const refused =
      'coin_bus_handler_duration_seconds_count{service="identity",operation="login",status="401"}';
    const before = await scrape(`${base}/metrics`);
    const body = partnerBody();
    expect((await stack.api.post('/api/v1/ufel/partners', body)).status).toBe(200);
    const login = await stack.api.post('/api/v1/ufel/partners/login', {
      email: body.email,
      password: 'wrong password',
    });
    expect(login.status).toBe(401);
    const after = await scrape(`${base}/metrics`);
    expect(sample(after, handled) - sample(before, handled)).toBe(1);
    expect(sample(after, refused) - sample(before, refused)).toBe(1);
    expect(after).toContain('coin_bus_handler_duration_seconds_bucket{le="0.005",service="identity"');
    expect(after).toContain('process_resident_memory_bytes');
  });
});
