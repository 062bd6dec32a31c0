import { randomUUID } from 'node:crypto';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { eventuallyPasses, type Stack, startStack } from '@coin/testing';
import { startWallet } from '@coin/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CoinApiError,
  type CoinClient,
  createClient,
  isCoinApiError,
  SDK_VERSION,
  tokenPair,
} from '../src/index.ts';
import { type RateLimitingProxy, rateLimitingProxy } from './support/rate-limiting-proxy.ts';

let stack: Stack;
let proxy: RateLimitingProxy;
let client: CoinClient;
let userId: string;

beforeAll(async () => {
  stack = await startStack({
    services: { identity: startIdentity, onboarding: startOnboarding, wallet: startWallet },
    gateway: startGateway,
    env: { AUTH_RATE_LIMIT_MAX: '1000' },
  });
  proxy = await rateLimitingProxy(stack.url);
  client = createClient({ baseUrl: proxy.url, appInfo: 'retry-test/1', retry: { baseMs: 10, capMs: 50 } });
  const email = `retry-${randomUUID()}@example.com`;
  const password = 'correct horse battery staple';
  await client.registerPartner({
    applicationName: 'Retries',
    redirectUrl: 'https://p.example/r',
    webRedirectUrl: 'https://p.example/w',
    mobileRedirectUrl: 'p://cb',
    email,
    partnerName: 'Retries Ltd',
    password,
    confirmPassword: password,
    userDetailsUrl: 'https://p.example/users',
  });
  client.useCredentials(tokenPair((await client.login({ email, password })).tokens));
  userId = randomUUID();
  await client.onboardUsers({ users: [{ userId, userData: {} }] });
  await eventuallyPasses(() => client.getPartnerUser({ userId }));
});

afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

const since = (t: number) => proxy.seen.filter((r) => r.at >= t);

describe('the SDK and the server telling it to wait', () => {
  it('retries a read answered 429 once Retry-After has passed', async () => {
    const start = Date.now();
    proxy.limit('/api/v1/laas/coins/balance', 1, '1');
    expect(await client.getBalance({ userId })).toEqual({
      userId,
      coins: 0,
      available: 0,
      pending: 0,
      expiring: [],
    });
    const tries = since(start).filter((r) => r.path.startsWith('/api/v1/laas/coins/balance'));
    expect(tries.map((r) => r.status)).toEqual([429, 200]);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(1000);
  });

  it('retries a keyed transfer answered 429 with the same Idempotency-Key, and moves the coins once', async () => {
    const start = Date.now();
    proxy.limit('/api/v1/laas/coins/transfer-to-user-wallet', 2, '1');
    const done = await client.transferToUser({ userId, coins: 7 });
    expect(done.isExisting).toBe(false);
    const tries = since(start).filter((r) => r.method === 'POST');
    expect(tries.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(new Set(tries.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(tries[2].at - tries[0].at).toBeGreaterThanOrEqual(2000);
    expect((await client.getBalance({ userId })).coins).toBe(7);
  });

  it('does not send again a write without a key answered 429: its error carries Retry-After', async () => {
    const start = Date.now();
    proxy.limit('/api/v1/laas/tiers', 1, '3');
    const err = await client.createTier({ name: 'gold', rank: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinApiError);
    expect(err).toMatchObject({ status: 429, appErrorCode: 'RATE_LIMITED', retryAfterSeconds: 3 });
    expect(since(start).map((r) => r.status)).toEqual([429]);
    expect((await client.listTiers()).data).toEqual([]);
  });

  it('throws at once when Retry-After is longer than it waits out (an HTTP date here)', async () => {
    const start = Date.now();
    proxy.limit('/api/v1/laas/coins/balance', 1, new Date(Date.now() + 120_000).toUTCString());
    const err = await client.getBalance({ userId }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, retryAfterSeconds: expect.any(Number) });
    expect((err as CoinApiError).retryAfterSeconds).toBeGreaterThan(100);
    expect(Date.now() - start).toBeLessThan(1000);
    expect(since(start)).toHaveLength(1);
  });

  it('types the error by operation and says which one failed', async () => {
    const err = await client.getPartnerUser({ userId: randomUUID() }).catch((e: unknown) => e);
    expect(isCoinApiError(err, 'getPartnerUser')).toBe(true);
    expect(isCoinApiError(err, 'getBalance')).toBe(false);
    if (!isCoinApiError(err, 'getPartnerUser')) throw err;
    // A code the operation cannot answer would not compile here: the union is the reference's.
    const code:
      | 'NOT_FOUND'
      | 'Bad request'
      | 'PAYLOAD_TOO_LARGE'
      | 'RATE_LIMITED'
      | 'UNAUTHORIZED'
      | 'FORBIDDEN'
      | 'SERVICE_UNAVAILABLE'
      | 'SERVICE_TIMEOUT'
      | `HTTP_${number}` = err.appErrorCode;
    expect(code).toBe('NOT_FOUND');
  });

  it('sends User-Agent coin-sdk/<version> with the application named in appInfo', () => {
    const agents = new Set(proxy.seen.map((r) => r.headers['user-agent']));
    expect([...agents]).toEqual([`coin-sdk/${SDK_VERSION} retry-test/1`]);
  });
});
