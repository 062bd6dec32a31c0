import { type Stack, startStack } from '@coin/testing';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../src/index.ts';

// A gateway in production mode with its admin port (METRICS_PORT), and no service behind it.
let stack: Stack;
let gateway: Gateway;

beforeAll(async () => {
  let started: Gateway | undefined;
  stack = await startStack({
    services: {},
    gateway: async (env) => {
      started = await startGateway(env);
      return started;
    },
    env: { APP_MODE: 'production', METRICS_PORT: '0', REQUEST_TIMEOUT_MS: '500' },
  });
  gateway = started!;
});

afterAll(async () => {
  await stack?.stop();
});

async function get(url: string) {
  const res = await request(url);
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

describe('public and admin ports in production mode', () => {
  it('does not serve /metrics on the public port; the admin port does', async () => {
    const pub = await get(`${gateway.url}/metrics`);
    expect(pub.status).toBe(404);
    expect(JSON.parse(pub.text)).toMatchObject({ status: 'failed', data: { appErrorCode: 'NOT_FOUND' } });
    const admin = await get(`${gateway.adminUrl}/metrics`);
    expect(admin.status).toBe(200);
    expect(admin.text).toContain('coin_http_request_duration_seconds');
  });

  it('answers a bare /ready on the public port and names the missing services only on the admin port', async () => {
    const pub = await get(`${gateway.url}/ready`);
    expect(pub.status).toBe(503);
    expect(pub.text).not.toContain('identity');
    expect(JSON.parse(pub.text).data).toEqual({
      errorType: 'unavailable',
      appErrorCode: expect.any(String),
      error: 'not ready',
    });
    const admin = await get(`${gateway.adminUrl}/ready`);
    expect(admin.status).toBe(503);
    expect(JSON.parse(admin.text).data.error).toContain('identity');
  });

  it('keeps /health, /docs and /openapi.json public', async () => {
    expect((await get(`${gateway.url}/health`)).status).toBe(200);
    expect((await get(`${gateway.url}/openapi.json`)).status).toBe(200);
    expect([200, 302]).toContain((await get(`${gateway.url}/docs`)).status);
    expect((await get(`${gateway.adminUrl}/health`)).status).toBe(200);
  });
});
