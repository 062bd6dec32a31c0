import { randomUUID } from 'node:crypto';
import { allOperations } from '@coin/contracts';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { eventuallyPasses, type Stack, startStack } from '@coin/testing';
import { startWallet } from '@coin/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  CoinApiError,
  type CoinClient,
  createClient,
  partnerOperations,
  tokenPair,
} from '../src/index.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    services: { identity: startIdentity, onboarding: startOnboarding, wallet: startWallet },
    gateway: startGateway,
    env: { AUTH_RATE_LIMIT_MAX: '1000' },
  });
});

afterAll(async () => {
  await stack?.stop();
});

async function signedUp(): Promise<{ client: CoinClient; email: string; password: string }> {
  const email = `sdk-${randomUUID()}@example.com`;
  const password = 'correct horse battery staple';
  const client = createClient({ baseUrl: stack.url });
  await client.registerPartner({
    applicationName: 'SDK test',
    redirectUrl: 'https://partner.example/r',
    webRedirectUrl: 'https://partner.example/w',
    mobileRedirectUrl: 'partner://cb',
    email,
    partnerName: 'SDK Partner',
    password,
    confirmPassword: password,
    userDetailsUrl: 'https://partner.example/users',
  });
  const { tokens } = await client.login({ email, password });
  client.useCredentials(tokenPair(tokens));
  return { client, email, password };
}

async function onboardedUser(client: CoinClient): Promise<string> {
  const userId = randomUUID();
  const { requestId } = await client.onboardUsers({ users: [{ userId, userData: { fullname: 'Ada' } }] });
  expect((await client.getOnboardingRequest({ id: requestId })).usersCount).toBe(1);
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await client.getPartnerUser({ userId });
      return userId;
    } catch (err) {
      if (!(err instanceof CoinApiError) || err.status !== 404 || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('@coin/sdk against the gateway', () => {
  it('has a method for every HTTP operation of the contracts', () => {
    const inSdk = new Set(Object.values(partnerOperations));
    const missing = allOperations.filter((op) => op.http && !inSdk.has(op as never)).map((op) => op.name);
    expect(missing).toEqual([]);
  });

  it('throws typed errors carrying appErrorCode, the field text and the request id', async () => {
    const { client } = await signedUp();
    const err = await client.getBalance({ userId: randomUUID() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinApiError);
    expect(err).toMatchObject({ status: 404, appErrorCode: 'NOT_FOUND', errorType: 'not_found' });
    expect((err as CoinApiError).requestId).toEqual(expect.any(String));
    const bad = await client
      .createRule({ name: 'Capitals', coinValue: '5', maxNumberOfParticipant: '3' })
      .catch((e) => e);
    expect(bad).toMatchObject({ status: 400, appErrorCode: 'Bad request', error: 'name must be lower case' });
  });

  it('refreshes a refused access token once with the refresh token, and reports the new pair', async () => {
    const { client, email, password } = await signedUp();
    const { tokens } = await client.login({ email, password });
    const seen: unknown[] = [];
    client.useCredentials(tokenPair({ ...tokens, accessToken: 'not-a-token' }, (t) => seen.push(t)));
    const [a, b] = await Promise.all([client.getMe(), client.listApiKeys()]);
    expect(a.email).toBe(email);
    expect(b.data).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
  });

  it('works with a secret API key instead of tokens', async () => {
    const { client } = await signedUp();
    const created = await client.createApiKey({ name: 'backend' });
    const byKey = createClient({ baseUrl: stack.url, credentials: apiKey(created.key) });
    expect((await byKey.getMe()).partnerId).toEqual(expect.any(String));
    await client.revokeApiKey({ id: created.id });
  });

  it('iterates every item of a paginated list across pages', async () => {
    const { client } = await signedUp();
    for (const rank of [1, 2, 3, 4, 5]) await client.createTier({ name: `tier ${rank}`, rank });
    const names: string[] = [];
    for await (const tier of client.iterate('listTiers', { limit: 2 })) names.push(tier.name);
    expect(names).toEqual(['tier 1', 'tier 2', 'tier 3', 'tier 4', 'tier 5']);
  });

  it('iterates the ledger export by nextAfter up to the sealed end of the chain', async () => {
    const { client } = await signedUp();
    const userId = await onboardedUser(client);
    for (const coins of [1, 2, 3, 4, 5]) await client.transferToUser({ userId, coins });
    await eventuallyPasses(async () => expect((await client.ledgerExport()).entries).toHaveLength(5));
    const seen: number[] = [];
    for await (const entry of client.iterate('ledgerExport', { limit: 2 })) seen.push(entry.seq);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('retries a transfer refused with 503 while the wallet is down, with the same Idempotency-Key, and moves the coins once', async () => {
    const { client: setup } = await signedUp();
    const userId = await onboardedUser(setup);
    const sent: { key: string | null; status: number }[] = [];
    let firstRefusal: () => void = () => undefined;
    const refused = new Promise<void>((resolve) => {
      firstRefusal = resolve;
    });
    // A fetch that only watches the real traffic: which key each attempt carried, and its status.
    const watching: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      const key = new Headers(init?.headers).get('idempotency-key');
      if (key) sent.push({ key, status: res.status });
      if (res.status === 503) firstRefusal();
      return res;
    };
    const client = createClient({
      baseUrl: stack.url,
      credentials: tokenPair(
        (await setup.login({ email: (await setup.getMe()).email, password: 'correct horse battery staple' }))
          .tokens,
      ),
      retry: { attempts: 50, baseMs: 20, capMs: 200 },
      fetch: watching,
    });
    await stack.stopService('wallet');
    const transfer = client.transferToUser({ userId, coins: 12.5 });
    await refused;
    await stack.startService('wallet');
    const result = await transfer;

    expect(result.isExisting).toBe(false);
    expect(result.coinsLedger.coins).toBe(12.5);
    expect(sent[0].status).toBe(503);
    expect(sent.at(-1)!.status).toBe(200);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    const history = await client.getUserTransactions({ userId });
    expect(history.count).toBe(1);
    expect((await client.getBalance({ userId })).coins).toBe(12.5);
  });

  it('replays a transfer given the same key: the first entry again, nothing moves twice', async () => {
    const { client } = await signedUp();
    const userId = await onboardedUser(client);
    const key = `order-${randomUUID()}`;
    const first = await client.transferToUser({ userId, coins: 3 }, { idempotencyKey: key });
    const again = await client.transferToUser({ userId, coins: 3 }, { idempotencyKey: key });
    expect(again.isExisting).toBe(true);
    expect(again.coinsLedger.id).toBe(first.coinsLedger.id);
    const other = await client.transferToUser({ userId, coins: 4 }, { idempotencyKey: key }).catch((e) => e);
    expect(other).toMatchObject({ status: 422, appErrorCode: 'IDEMPOTENCY_CONFLICT' });
  });
});
