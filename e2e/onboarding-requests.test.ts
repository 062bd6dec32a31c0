import { randomUUID } from 'node:crypto';
import { eventually, type Stack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, onboardWithData, setWebhook } from './support/onboarding.ts';
import { partnerClient, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'webhooks', 'wallet'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_POLL_MS: '20',
    ONBOARDING_CHUNK_SIZE: '2',
  });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('onboarding requests', () => {
  it('answers onboard-users with a Location whose id is followed to done, with its failures paged, and is the webhook requestId', async () => {
    const p = await registerAndLogin(stack.api);
    await setWebhook(stack.api, p, receiver.url);
    const [a, b, c] = newUsers(3);
    await onboard(stack.api, p, [a]);
    const res = await stack.api.post(
      '/api/v1/laas/onboard-users',
      { users: [a, b, c, b] },
      { token: p.accessToken },
    );
    expect(res.body).toEqual({ status: 'success', message: expect.any(String) });
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/api\/v1\/laas\/onboarding-requests\/[0-9a-f-]{36}$/);
    const requestId = location.split('/').pop();

    const done = await eventually(async () => {
      const r = await stack.api.get(location, { token: p.accessToken, query: { limit: 1 } });
      expect(r.status).toBe(200);
      return r.body.data.status === 'done' ? r.body.data : undefined;
    });
    expect(done).toMatchObject({ id: requestId, usersCount: 4, processedCount: 4, failedCount: 2 });
    expect(done.completedAt).toEqual(expect.any(String));
    expect(done.failures).toMatchObject({ count: 2, currentpage: 1, nextpage: 2, lastpage: 2 });
    expect(done.failures.data).toEqual([
      { user: a.userId, reason: expect.stringMatching(/already onboarded/) },
    ]);
    const second = await stack.api.get(location, { token: p.accessToken, query: { limit: 1, page: 2 } });
    expect(second.body.data.failures.data).toEqual([
      { user: b.userId, reason: expect.stringMatching(/more than once/) },
    ]);

    const hooks = await receiver.waitFor(2);
    expect(hooks.map((h) => h.json.requestId)).toContain(requestId);

    const list = await stack.api.get('/api/v1/laas/onboarding-requests', { token: p.accessToken });
    expect(list.body.data.data.map((r: { id: string }) => r.id)[0]).toBe(requestId);
    expect(list.body.data.count).toBe(2);
    const users = await stack.api.get('/api/v1/laas/users', { token: p.accessToken, query: { limit: 2 } });
    expect(users.body.data).toMatchObject({ count: 3, lastpage: 2 });
  });

  it('finds users by the start of their id, their tag or part of their name, and no one else', async () => {
    const p = await registerAndLogin(stack.api);
    const other = await registerAndLogin(stack.api);
    const [ada, grace, plain] = await onboardWithData(stack.api, p.accessToken, [
      { fullname: 'Ada Lovelace', tag: 'ada_1815' },
      { name: 'Grace 100%_Hopper' },
      { city: 'Lagos' },
    ]);
    await onboardWithData(stack.api, other.accessToken, [{ fullname: 'Ada Other', tag: 'ada_1815' }]);
    const sdk = partnerClient(stack.api, p);
    const found = async (search: string) =>
      (await sdk.listUsers({ search, limit: 10 })).data.map((u) => u.userId).sort();
    expect(await found('lovelace')).toEqual([ada]);
    expect(await found('ADA_1815')).toEqual([ada]);
    expect(await found(plain.slice(0, 8).toUpperCase())).toEqual([plain]);
    // LIKE's wildcards are taken as text: `%_` matches only the name that holds them.
    expect(await found('100%_h')).toEqual([grace]);
    expect(await found('%')).toEqual([grace]);
    expect(await found('nobody here')).toEqual([]);
    // 'o' is in both names and, not being hex, in no id's start.
    const paged = await sdk.listUsers({ search: 'o', limit: 1, page: 2 });
    expect(paged).toMatchObject({ count: 2, currentpage: 2, lastpage: 2 });
    const bad = await stack.api.get('/api/v1/laas/users', {
      token: p.accessToken,
      query: { search: 'x'.repeat(101) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error).toMatch(/^search /);
  });

  it("answers 404 for another partner's request or an unknown one", async () => {
    const owner = await registerAndLogin(stack.api);
    const other = await registerAndLogin(stack.api);
    const requestId = await onboard(stack.api, owner, newUsers(1));
    const theirs = await stack.api.get(`/api/v1/laas/onboarding-requests/${requestId}`, {
      token: other.accessToken,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.data.appErrorCode).toBe('NOT_FOUND');
    const unknown = await stack.api.get(`/api/v1/laas/onboarding-requests/${randomUUID()}`, {
      token: owner.accessToken,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('coin summary', () => {
  it('sums the month by day: issued (credits) and redeemed (debits), other partners apart', async () => {
    const p = await registerAndLogin(stack.api);
    const other = await registerAndLogin(stack.api);
    const [u] = newUsers(1);
    await onboard(stack.api, p, [u]);
    await onboard(stack.api, other, [u]);
    const pay = (who: typeof p, path: string, coins: number) =>
      eventually(async () => {
        const r = await stack.api.post(
          `/api/v1/laas/coins/${path}`,
          { userId: u.userId, coins },
          { token: who.accessToken },
        );
        return r.status === 200 ? r : undefined;
      });
    await pay(p, 'transfer-to-user-wallet', 10.1);
    await pay(p, 'transfer-to-user-wallet', 0.2);
    await pay(p, 'transfer-from-user-wallet', 3.05);
    await pay(other, 'transfer-to-user-wallet', 99);
    const now = new Date();
    const res = await stack.api.get('/api/v1/laas/coins/summary', { token: p.accessToken });
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s).toMatchObject({
      year: now.getUTCFullYear(),
      month: now.getUTCMonth() + 1,
      issued: 10.3,
      redeemed: 3.05,
      transfers: 3,
    });
    expect(s.days).toHaveLength(new Date(Date.UTC(s.year, s.month, 0)).getUTCDate());
    expect(s.days.find((d: { day: string }) => d.day === now.toISOString().slice(0, 10))).toEqual({
      day: now.toISOString().slice(0, 10),
      transfers: 3,
      issued: 10.3,
      redeemed: 3.05,
    });
    const empty = await stack.api.get('/api/v1/laas/coins/summary', {
      token: p.accessToken,
      query: { year: 2001, month: 2 },
    });
    expect(empty.body.data).toMatchObject({ issued: 0, redeemed: 0, transfers: 0 });
    expect(empty.body.data.days).toHaveLength(28);
  });
});
