import { randomUUID } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { identity, type Operation } from '@coin/contracts';
import { eventually, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, startMailbox } from './support/mailbox.ts';
import { registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

// One proxy in front (as in production, TRUST_PROXY=1): the X-Forwarded-For a test sends is the
// address the proxy saw, so each test is a client of its own.
const CLIENT_LIMIT = 200;
let stack: Stack;
let observer: NatsConnection;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
  stack = await stackWith(['identity'], {
    SMTP_URL: mailbox.url,
    TRUST_PROXY: '1',
    CLIENT_RATE_LIMIT_MAX: String(CLIENT_LIMIT),
    AUTH_RATE_LIMIT_MAX: '1000',
    API_KEY_CACHE_MS: '0',
  });
  observer = await connectBus(stack.env.NATS_URL!, 'test-observer', stack.env.NATS_NAMESPACE!);
});

afterAll(async () => {
  await observer?.drain();
  await stack?.stop();
  await mailbox?.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

function login(email: string, password: string, address: string) {
  return stack.api.post('/api/v1/ufel/partners/login', { email, password }, from(address));
}

/** The gateway's bus requests for `op` while `work` runs (a plain subscriber sees each one). */
async function busRequestsDuring(op: Operation, work: () => Promise<unknown>): Promise<number> {
  let seen = 0;
  const sub = observer.subscribe(namesOf(observer).subject(op.subject), {
    callback: () => {
      seen++;
    },
  });
  await observer.flush();
  try {
    await work();
    await observer.flush();
    return seen;
  } finally {
    sub.unsubscribe();
  }
}

describe('login throttles that are no lockout', () => {
  it('five wrong passwords from one client do not stop the right password from another', async () => {
    const p = await registerAndLogin(stack.api);
    const stranger = '198.51.100.23';
    for (let i = 0; i < 5; i++) expect((await login(p.email, `wrong-${i}`, stranger)).status).toBe(401);

    const locked = await login(p.email, p.password, stranger);
    expect(locked.status).toBe(429);
    expect(locked.body.data.appErrorCode).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    const owner = await login(p.email, p.password, '203.0.113.77');
    expect(owner.status).toBe(200);
    expect(owner.body.data.tokens.accessToken).toEqual(expect.any(String));
    // The owner's login does not free the stranger's pair.
    expect((await login(p.email, p.password, stranger)).status).toBe(429);
  });

  it('counts an IPv6 client per /64: a fresh address in the same block is the same client', async () => {
    const p = await registerAndLogin(stack.api);
    for (let i = 0; i < 5; i++)
      expect((await login(p.email, `wrong-${i}`, `2001:db8:7:9::${i + 1}`)).status).toBe(401);
    expect((await login(p.email, p.password, '2001:db8:7:9:ffff::1')).status).toBe(429);
    expect((await login(p.email, p.password, '2001:db8:7:a::1')).status).toBe(200);
  });
});

describe('unlocking by e-mail', () => {
  it('a single-use link lifts the locks of an e-mail; an unknown e-mail gets the same answer', async () => {
    const p = await registerAndLogin(stack.api);
    const office = '198.51.100.99';
    for (let i = 0; i < 5; i++) await login(p.email, `wrong-${i}`, office);
    expect((await login(p.email, p.password, office)).status).toBe(429);

    const asked = await stack.api.post(
      '/api/v1/ufel/partners/login/unlock',
      { email: p.email },
      from(office),
    );
    const unknown = await stack.api.post(
      '/api/v1/ufel/partners/login/unlock',
      { email: `nobody-${randomUUID()}@example.com` },
      from(office),
    );
    expect(asked.status).toBe(200);
    expect(unknown.body).toEqual(asked.body);
    const mail = await eventually(async () =>
      mailbox.received.find((m) => m.to.includes(p.email.toLowerCase())),
    );
    const token = /Unlock token: (\S+)/.exec(mail.raw)![1];

    const unlock = () => stack.api.get('/api/v1/ufel/partners/login/unlock', { query: { token } });
    expect((await unlock()).status).toBe(200);
    expect((await login(p.email, p.password, office)).status).toBe(200);
    const again = await unlock();
    expect(again.status).toBe(422);
    expect(again.body.data.appErrorCode).toBe('INVALID_TOKEN');
  });
});

describe('per-client limit before authentication', () => {
  it('holds a client, IPv6 per /64, on every route, and answers 429 before checking a key', async () => {
    const block = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    const statuses: number[] = [];
    for (let i = 0; i < CLIENT_LIMIT; i++) {
      const res = await stack.api.get(
        i % 2 ? '/health' : `/api/v1/no-such-route/${i}`,
        from(`${block}::${i}`),
      );
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const health = await stack.api.get('/health', from(`${block}:abcd::1`));
    expect(health.status).toBe(429);
    expect(health.body.data.appErrorCode).toBe('RATE_LIMITED');
    expect(Number(health.headers['retry-after'])).toBeGreaterThan(0);
    expect(health.headers['x-ratelimit-limit']).toBe(String(CLIENT_LIMIT));
    const seen = await busRequestsDuring(identity.verifyApiKey, async () => {
      const forged = await stack.api.get('/api/v1/ufel/partners/me', {
        ...from(`${block}::beef`),
        token: `ck_live_${randomUUID().replaceAll('-', '')}`,
      });
      expect(forged.status).toBe(429);
    });
    expect(seen).toBe(0);
    // Another block is another client.
    expect((await stack.api.get('/health', from('2001:db8:ffff:2::1'))).status).toBe(200);
  });
});

describe('API keys at the edge', () => {
  it('caches a refused key (no second bus call) and writes last_used_at at most once a minute', async () => {
    const p = await registerAndLogin(stack.api);
    const created = await stack.api.post(
      '/api/v1/ufel/partners/api-keys',
      { name: 'edge' },
      { token: p.accessToken },
    );
    expect(created.status).toBe(200);
    const key: string = created.body.data.key;
    for (let i = 0; i < 3; i++)
      expect((await stack.api.get('/api/v1/ufel/partners/me', { token: key })).status).toBe(200);
    const usedAt = async () =>
      (await stack.api.get('/api/v1/ufel/partners/api-keys', { token: p.accessToken })).body.data.data[0]
        .lastUsedAt;
    const first = await usedAt();
    expect(first).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect((await stack.api.get('/api/v1/ufel/partners/me', { token: key })).status).toBe(200);
    expect(await usedAt()).toBe(first);

    const revoked = await stack.api.delete(`/api/v1/ufel/partners/api-keys/${created.body.data.id}`, {
      token: p.accessToken,
    });
    expect(revoked.status).toBe(200);
    const calls = await busRequestsDuring(identity.verifyApiKey, async () => {
      for (let i = 0; i < 3; i++)
        expect((await stack.api.get('/api/v1/ufel/partners/me', { token: key })).status).toBe(401);
    });
    expect(calls).toBe(1);
  });
});
