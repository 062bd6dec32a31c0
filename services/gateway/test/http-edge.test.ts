import { type Stack, startStack } from '@coin/testing';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../src/index.ts';

// The gateway alone, no service behind it: what it answers itself, and what it answers for a
// service that is not there.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ services: {}, gateway: startGateway, env: { REQUEST_TIMEOUT_MS: '1000' } });
});

afterAll(async () => {
  await stack?.stop();
});

async function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const res = await request(`${stack.url}${path}`, { method: (init.method ?? 'GET') as 'GET', ...init });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    headers: res.headers,
    body: JSON.parse(text),
  };
}

const envelope = (errorType: string, appErrorCode: string) => ({
  status: 'failed',
  message: expect.any(String),
  data: { errorType, appErrorCode, error: expect.any(String) },
});

describe('gateway edge', () => {
  it('answers an unknown route with the 404 envelope naming it', async () => {
    const res = await raw('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope('not_found', 'NOT_FOUND'));
    expect(res.body.data.error).toContain('/api/v1/nothing-here');
  });

  it('sends the security headers on every answer, an error and a JSON page alike', async () => {
    for (const path of ['/api/v1/nothing-here', '/health']) {
      const { headers } = await raw(path);
      expect(headers, path).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(headers['x-request-id'], path).toEqual(expect.any(String));
    }
  });

  it('answers a request line over 16 KB with a 431 envelope, not the HTTP server’s own body', async () => {
    const res = await raw(`/api/v1/laas/tiers?page=${'9'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(envelope('invalid', 'HEADERS_TOO_LARGE'));
  });

  it('answers an over-long path parameter with the 400 envelope', async () => {
    const res = await raw(`/api/v1/laas/users/${'a'.repeat(500)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('invalid', 'Bad request'));
  });

  it('refuses a body that is not JSON with 415, and malformed JSON with 400', async () => {
    const login = '/api/v1/ufel/partners/login';
    const text = await raw(login, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(text.status).toBe(415);
    expect(text.body).toEqual(envelope('invalid', 'UNSUPPORTED_MEDIA_TYPE'));
    const broken = await raw(login, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual(envelope('invalid', 'Bad request'));
  });

  it('refuses a partner route without a token with 401, before any service is asked', async () => {
    const res = await raw('/api/v1/laas/tiers');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(envelope('unauthorized', 'UNAUTHORIZED'));
  });

  it('answers 503 when no replica of the service serves the operation, and /ready says which are missing', async () => {
    const res = await raw('/api/v1/ufel/partners/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'whatever1' }),
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual(envelope('unavailable', 'SERVICE_UNAVAILABLE'));
    const ready = await raw('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data.error).toContain('identity');
    expect((await raw('/health')).status).toBe(200);
  });
});
