import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { identity } from '@coin/contracts';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerBody } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let nc: NatsConnection;

beforeAll(async () => {
  stack = await stackWith(['identity'], {
    AUTH_RATE_LIMIT_MAX: '3',
    REQUEST_TIMEOUT_MS: '1500',
  });
  nc = await connectBus(stack.env.NATS_URL!, 'gateway-limits-test', stack.env.NATS_NAMESPACE!);
});

afterAll(async () => {
  await nc?.close();
  await stack?.stop();
});

describe('gateway limits', () => {
  it('limits sign-up and login per client address: 429 envelope with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof stack.api.post>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await stack.api.post('/api/v1/ufel/partners/login', {
        email: `nobody-${i}@example.com`,
        password: 'x',
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(last!.body).toMatchObject({
      status: 'failed',
      data: { errorType: 'rate_limited', appErrorCode: 'RATE_LIMITED' },
    });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("limits the dashboard's sign-in per client address as it limits login", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await stack.api.post('/dashboard/session', {
        email: `nobody-${i}@example.com`,
        password: 'x',
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("refuses a body over its operation's limit with a 413 envelope naming the limit", async () => {
    const res = await stack.api.post(
      '/api/v1/ufel/partners',
      partnerBody({ padding: 'y'.repeat(64 * 1024) }),
    );
    expect(res.status).toBe(413);
    expect(res.body.data).toEqual({
      errorType: 'invalid',
      appErrorCode: 'PAYLOAD_TOO_LARGE',
      error: 'the body of POST /api/v1/ufel/partners must be at most 64 KiB (65536 bytes)',
    });
  });

  it('answers 504 when a service does not answer within the request timeout, never hanging', async () => {
    await stack.stopService('identity');
    try {
      const started = Date.now();
      const down = await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: 'whatever' });
      expect(down.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(1400);

      // A replica that takes the request and never replies stands in for a stuck service.
      const stuck = nc.subscribe(namesOf(nc).subject(identity.refreshTokens.subject), {
        queue: 'identity',
        callback: () => undefined,
      });
      // The server must know of the subscription before the gateway's request arrives.
      await nc.flush();
      try {
        const t0 = Date.now();
        const slow = await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: 'whatever' });
        const took = Date.now() - t0;
        expect(slow.status).toBe(504);
        expect(slow.body).toMatchObject({
          status: 'failed',
          data: { errorType: 'unavailable', appErrorCode: 'SERVICE_TIMEOUT' },
        });
        expect(took).toBeGreaterThanOrEqual(1400);
        expect(took).toBeLessThan(4000);
      } finally {
        stuck.unsubscribe();
      }
    } finally {
      await stack.startService('identity');
    }
  });

  it('accepts a request id from the client and echoes it', async () => {
    const res = await stack.api.post('/api/v1/ufel/partners', partnerBody({ applicationName: '' }), {
      headers: { 'x-request-id': 'partner-trace-123' },
    });
    expect(res.headers['x-request-id']).toBe('partner-trace-123');
    expect(res.status).toBe(400);
    expect(res.body.data.error).toBe('applicationName must not be empty');
  });
});
