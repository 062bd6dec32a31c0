import { randomUUID } from 'node:crypto';
import { LARGE_REQUEST_CAPACITY } from '@coin/contracts/validation-pool';
import {
  type ApiClient,
  apiClient,
  freePort,
  type GatewayProcess,
  type Stack,
  spawnGateway,
  startStack,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { rawRequest } from './support/raw-http.ts';
import { starters } from './support/stack.ts';

// The gateway in its own process, as deployed: its event loop and heap are not the test's.
let services: Stack;
let gateway: GatewayProcess;
let adminUrl: string;
let api: ApiClient;
let partner: RegisteredPartner;

const MB24 = 24 * 1024 * 1024;
const FORGED_KEY = `ck_live_${randomUUID().replaceAll('-', '')}`;

/** The three requests an unauthenticated client can make the gateway read. */
const ATTACKS = [
  {
    name: 'POST /api/v1/no-such-route',
    method: 'POST',
    path: '/api/v1/no-such-route',
    headers: {},
    status: 404,
  },
  { name: 'GET /health', method: 'GET', path: '/health', headers: {}, status: 413 },
  {
    name: 'POST /api/v1/laas/onboard-users with a forged key',
    method: 'POST',
    path: '/api/v1/laas/onboard-users',
    headers: { authorization: `Bearer ${FORGED_KEY}` },
    status: 401,
  },
] as const;

beforeAll(async () => {
  services = await startStack({
    services: { identity: starters.identity, onboarding: starters.onboarding },
    // A large body's first validation starts a worker thread in the gateway and in onboarding: slow
    // on a loaded machine, and not what these tests time.
    env: { AUTH_RATE_LIMIT_MAX: '1000', REQUEST_TIMEOUT_MS: '20000' },
  });
  const metricsPort = await freePort();
  gateway = await spawnGateway({ ...services.env, METRICS_PORT: String(metricsPort) }, [
    'identity',
    'onboarding',
  ]);
  adminUrl = `http://127.0.0.1:${metricsPort}`;
  api = apiClient(gateway.url);
  partner = await registerAndLogin(api);
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await services?.stop();
});

async function heapUsed(): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

describe('a body is refused before it is read', () => {
  it('answers 404, 413 and 401 to 24 MB requests before a byte of their body is sent', async () => {
    for (const attack of ATTACKS) {
      for (const framing of ['content-length', 'chunked'] as const) {
        const answer = await rawRequest(gateway.url, {
          ...attack,
          bodyBytes: MB24,
          framing,
          // With a length the body is never sent; without one it streams until the gateway answers.
          send: framing === 'content-length' ? 'head' : 'stream',
        });
        console.log(
          `${attack.name}, 24 MB ${framing}: ${answer.status} after ${answer.ms.toFixed(1)} ms, ${answer.bodyBytesSent} body bytes sent by then`,
        );
        expect(answer.status).toBe(attack.status);
        expect(answer.body).toMatchObject({ status: 'failed' });
        if (framing === 'content-length') expect(answer.bodyBytesSent).toBe(0);
        else expect(answer.bodyBytesSent).toBeLessThan(MB24);
      }
    }
  });

  it('keeps /health under a second while clients stream 24 MB to those routes', async () => {
    const heapBefore = await heapUsed();
    let attacking = true;
    const statuses = new Map<string, number>();
    const attacker = async (i: number) => {
      for (let n = i; attacking; n++) {
        const attack = ATTACKS[n % ATTACKS.length];
        const status = await rawRequest(gateway.url, {
          ...attack,
          bodyBytes: MB24,
          framing: n % 2 ? 'chunked' : 'content-length',
          send: 'stream',
          timeoutMs: 30_000,
        }).then(
          (answer) => String(answer.status),
          // The gateway closes a refused request's connection; a write racing the close can lose the answer.
          () => 'reset',
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const attackers = Array.from({ length: 4 }, (_, i) => attacker(i));
    const latencies: number[] = [];
    let heapPeak = heapBefore;
    try {
      for (let i = 0; i < 40; i++) {
        const t = performance.now();
        const res = await fetch(`${gateway.url}/health`);
        latencies.push(performance.now() - t);
        expect(res.status).toBe(200);
        heapPeak = Math.max(heapPeak, await heapUsed());
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      attacking = false;
      await Promise.all(attackers);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `/health beside 4 clients streaming 24 MB bodies (${JSON.stringify(Object.fromEntries(statuses))} answered): ` +
        `${latencies.length} probes, p50 ${pct(sorted, 50).toFixed(1)} ms, p95 ${pct(sorted, 95).toFixed(1)} ms, ` +
        `max ${sorted.at(-1)!.toFixed(1)} ms; gateway heap ${(heapBefore / 1e6).toFixed(1)} MB before, ` +
        `${(heapPeak / 1e6).toFixed(1)} MB at most during`,
    );
    expect(sorted.at(-1)).toBeLessThan(1000);
    expect([...statuses.keys()].filter((s) => s !== 'reset').sort()).toEqual(['401', '404', '413']);
    // 24 MB of `{},` parsed is hundreds of MB of objects; unread, the heap barely moves.
    expect(heapPeak - heapBefore).toBeLessThan(48 * 1024 * 1024);
  });

  it('answers a 4 MB body on a small operation 413 in the envelope, naming the limit', async () => {
    for (const framing of ['content-length', 'chunked'] as const) {
      const answer = await rawRequest(gateway.url, {
        method: 'POST',
        path: '/api/v1/laas/tiers',
        headers: { authorization: `Bearer ${partner.accessToken}` },
        bodyBytes: 4 * 1024 * 1024,
        framing,
        send: 'stream',
      });
      console.log(
        `4 MB to POST /api/v1/laas/tiers (${framing}): ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({
        status: 'failed',
        message: 'payload too large',
        data: {
          errorType: 'invalid',
          appErrorCode: 'PAYLOAD_TOO_LARGE',
          error: 'the body of POST /api/v1/laas/tiers must be at most 64 KiB (65536 bytes)',
        },
      });
    }
  });

  it('reads a GET body only where the contract declares one (create-rule)', async () => {
    const me = await api.get('/api/v1/ufel/partners/me', {
      token: partner.accessToken,
      body: { pad: 'x'.repeat(1000) },
    });
    expect(me.status).toBe(413);
    expect(me.body.data.error).toBe('GET /api/v1/ufel/partners/me takes no body (at most 64 bytes)');
    // `{}` from a client that always sends one is still taken.
    expect((await api.get('/api/v1/ufel/partners/me', { token: partner.accessToken, body: {} })).status).toBe(
      200,
    );
    // create-rule's GET form reads and validates its body (here refused by the contract, not the limit).
    const rule = await api.get('/api/v1/laas/rules/create-rule', {
      token: partner.accessToken,
      body: { name: 'Not Lower Case', coinValue: '5', maxNumberOfParticipant: '10', pad: 'x'.repeat(1000) },
    });
    expect(rule.status).toBe(400);
    expect(rule.body.data.error).toContain('name must be lower case');
  });

  it('refuses a large body beyond what the validation pool takes with 503 and Retry-After, before reading it', async () => {
    const held = Array.from({ length: LARGE_REQUEST_CAPACITY }, () =>
      rawRequest(gateway.url, {
        method: 'POST',
        path: '/api/v1/laas/onboard-users',
        headers: { authorization: `Bearer ${partner.accessToken}` },
        bodyBytes: 1024 * 1024,
        framing: 'content-length',
        send: 'head',
        timeoutMs: 3000,
      }).catch((err: Error) => err),
    );
    // The held requests are admitted (and wait for their bodies) before the next one arrives.
    await new Promise((r) => setTimeout(r, 1000));
    const refused = await rawRequest(gateway.url, {
      method: 'POST',
      path: '/api/v1/laas/onboard-users',
      headers: { authorization: `Bearer ${partner.accessToken}` },
      bodyBytes: 1024 * 1024,
      framing: 'content-length',
      send: 'head',
    });
    console.log(
      `onboarding body beside ${LARGE_REQUEST_CAPACITY} large bodies being received: ${refused.status} Retry-After ${refused.headers['retry-after']}: ${refused.body.data?.error}`,
    );
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body.data.appErrorCode).toBe('SERVICE_UNAVAILABLE');
    expect(refused.bodyBytesSent).toBe(0);
    // The held ones time out on the client (their bodies never come); once their connections end,
    // a large body is taken again.
    for (const h of await Promise.all(held)) expect(h).toBeInstanceOf(Error);
    const users = Array.from({ length: 3000 }, () => ({
      userId: randomUUID(),
      userData: { note: 'x'.repeat(80) },
    }));
    const t0 = performance.now();
    const taken = await api.post('/api/v1/laas/onboard-users', { users }, { token: partner.accessToken });
    console.log(
      `taken in ${(performance.now() - t0).toFixed(0)} ms: ${taken.status} ${taken.text.slice(0, 200)}`,
    );
    expect(taken.status).toBe(200);
  });
});
