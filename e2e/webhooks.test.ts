import {
  eventually,
  type Stack,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_RETRY_BASE_MS: '50',
    WEBHOOK_RETRY_MAX_MS: '50',
    WEBHOOK_MAX_ATTEMPTS: '5',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await stack?.stop();
});

async function partnerWithReceiver(): Promise<{
  p: RegisteredPartner;
  receiver: WebhookReceiver;
  secret: string;
}> {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const p = await registerAndLogin(stack.api);
  const secret = await setWebhook(stack.api, p, receiver.url);
  return { p, receiver, secret };
}

function deliveries(p: RegisteredPartner, query: { status?: 'pending' | 'delivered' | 'failed' } = {}) {
  return partnerClient(stack.api, p).listDeliveries(query);
}

describe('USER_ONBOARDING webhook', () => {
  it('is signed and lists no failure for new users, then names the user onboarded twice', async () => {
    const { p, receiver, secret } = await partnerWithReceiver();
    const users = newUsers(3);
    await onboard(stack.api, p, users);
    const [first] = await receiver.waitFor(1);
    expect(first.json).toEqual({
      event: 'USER_ONBOARDING',
      status: 'success',
      occurredAt: expect.any(String),
      sequence: 1,
      requestId: expect.any(String),
      failed: [],
    });
    expect(first.headers['content-type']).toBe('application/json');
    expect(verifySignature(secret, first.headers, first.body)).toBe(true);
    expect(verifySignature(secret, first.headers, first.body.replace('success', 'failure'))).toBe(false);
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    await onboard(stack.api, p, [users[1], ...newUsers(1)]);
    const [, second] = await receiver.waitFor(2);
    expect(verifySignature(secret, second.headers, second.body)).toBe(true);
    expect(second.json.failed).toEqual([
      { user: users[1].userId, reason: expect.stringContaining('already onboarded') },
    ]);
    expect(second.json.requestId).not.toBe(first.json.requestId);
    expect(second.headers['webhook-id']).not.toBe(first.headers['webhook-id']);
  });

  it('reports a userId repeated within one request once stored and once failed', async () => {
    const { p, receiver } = await partnerWithReceiver();
    const [a, b] = newUsers(2);
    await onboard(stack.api, p, [a, b, { ...a, userData: { again: true } }]);
    const [hook] = await receiver.waitFor(1);
    expect(hook.json.failed).toEqual([{ user: a.userId, reason: expect.stringContaining('more than once') }]);
    const stored = await stack.api.get(`/api/v1/laas/users/${a.userId}`, { token: p.accessToken });
    expect(stored.body.data.userData).toEqual(a.userData);
  });

  it('retries a failing endpoint with backoff: 500 three times, then 200 → delivered once, 4 attempts', async () => {
    const { p, receiver } = await partnerWithReceiver();
    receiver.respondWith((n) => (n < 3 ? 500 : 200));
    await onboard(stack.api, p, newUsers(2));
    await receiver.waitFor(4);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(p);
      return list.data[0]?.status === 'delivered' ? list.data : undefined;
    });
    expect(delivery).toMatchObject({
      event: 'USER_ONBOARDING',
      status: 'delivered',
      attempts: 4,
      lastStatusCode: 200,
    });
    expect(delivery.attemptLog.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(delivery.attemptLog[0]).toMatchObject({ attempt: 1, url: receiver.url, error: 'HTTP 500' });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('marks a delivery failed after its last attempt, and a manual retry sends it again', async () => {
    const { p, receiver } = await partnerWithReceiver();
    receiver.respondWith((n) => (n < 5 ? 503 : 200));
    await onboard(stack.api, p, newUsers(1));
    const [failed] = await eventually(async () => {
      const list = await deliveries(p, { status: 'failed' });
      return list.data.length ? list.data : undefined;
    });
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, lastStatusCode: 503, nextAttemptAt: null });
    const retry = await stack.api.post(`/api/v1/laas/webhooks/deliveries/${failed.id}/retry`, undefined, {
      token: p.accessToken,
    });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ id: failed.id, status: 'pending' });
    await receiver.waitFor(6);
    const done = await eventually(async () => {
      const list = await deliveries(p);
      return list.data[0].status === 'delivered' ? list.data[0] : undefined;
    });
    expect(done.attempts).toBe(6);
  });

  it('disables an endpoint that answers 410 and sends nothing more to it', async () => {
    const { p, receiver } = await partnerWithReceiver();
    receiver.respondWith(() => 410);
    await onboard(stack.api, p, newUsers(1));
    await eventually(async () => {
      const list = await deliveries(p, { status: 'failed' });
      return list.data.length ? list : undefined;
    });
    await onboard(stack.api, p, newUsers(1));
    const list = await eventually(async () => {
      const l = await deliveries(p, { status: 'failed' });
      return l.count === 2 ? l : undefined;
    });
    expect(list.data[0].lastError).toContain('disabled');
    expect(receiver.received).toHaveLength(1);
  });

  it("lists only the caller's deliveries and refuses another partner's retry with 404", async () => {
    const { p, receiver } = await partnerWithReceiver();
    await onboard(stack.api, p, newUsers(1));
    await receiver.waitFor(1);
    const mine = await eventually(async () => {
      const l = await deliveries(p);
      return l.count === 1 ? l : undefined;
    });
    expect(mine).toMatchObject({ count: 1, currentpage: 1, nextpage: null, prevpage: null, lastpage: 1 });
    const stranger = await registerAndLogin(stack.api);
    expect((await deliveries(stranger)).count).toBe(0);
    const res = await stack.api.post(`/api/v1/laas/webhooks/deliveries/${mine.data[0].id}/retry`, undefined, {
      token: stranger.accessToken,
    });
    expect(res.status).toBe(404);
    expect(res.body.data.appErrorCode).toBe('NOT_FOUND');
  });
});

describe('tiers', () => {
  it('creates and lists tiers, upgrades a user with the exact shape, refuses another partner’s tier or user', async () => {
    const { p, receiver } = await partnerWithReceiver();
    const other = await registerAndLogin(stack.api);
    const [user] = newUsers(1);
    await onboard(stack.api, p, [user]);
    await receiver.waitFor(1);

    const gold = await stack.api.post(
      '/api/v1/laas/tiers',
      { name: 'Gold', rank: 2 },
      { token: p.accessToken },
    );
    expect(gold.status).toBe(200);
    expect(gold.body).toEqual({
      status: 'success',
      message: 'tier created',
      data: {
        id: expect.any(String),
        name: 'Gold',
        rank: 2,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    await stack.api.post('/api/v1/laas/tiers', { name: 'Silver', rank: 1 }, { token: p.accessToken });
    const dup = await stack.api.post(
      '/api/v1/laas/tiers',
      { name: 'gold', rank: 3 },
      { token: p.accessToken },
    );
    expect(dup.status).toBe(409);
    expect(dup.body.data.appErrorCode).toBe('DUPLICATE');
    expect(
      (await stack.api.post('/api/v1/laas/tiers', { rank: 1 }, { token: p.accessToken })).body.data.error,
    ).toBe('name is required');
    const list = await stack.api.get('/api/v1/laas/tiers', { token: p.accessToken });
    expect(list.body.data.data.map((t: { name: string }) => t.name)).toEqual(['Silver', 'Gold']);
    expect(list.body.data).toMatchObject({
      count: 2,
      currentpage: 1,
      nextpage: null,
      prevpage: null,
      lastpage: 1,
    });

    const up = await stack.api.post(
      '/api/v1/laas/user/upgrade-tier',
      { userId: user.userId, partnerId: p.partnerId, tierId: gold.body.data.id },
      { token: p.accessToken },
    );
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'success', message: 'tier upgraded', data: {} });
    const stored = await stack.api.get(`/api/v1/laas/users/${user.userId}`, { token: p.accessToken });
    expect(stored.body.data.tierId).toBe(gold.body.data.id);

    const othersTier = await stack.api.post(
      '/api/v1/laas/tiers',
      { name: 'Gold', rank: 1 },
      { token: other.accessToken },
    );
    const refusedTier = await stack.api.post(
      '/api/v1/laas/user/upgrade-tier',
      { userId: user.userId, tierId: othersTier.body.data.id },
      { token: p.accessToken },
    );
    expect(refusedTier.status).toBe(404);
    expect(refusedTier.body.data).toMatchObject({ appErrorCode: 'NOT_FOUND', error: 'tier not found' });
    const refusedUser = await stack.api.post(
      '/api/v1/laas/user/upgrade-tier',
      { userId: user.userId, tierId: othersTier.body.data.id },
      { token: other.accessToken },
    );
    expect(refusedUser.status).toBe(404);
    expect(refusedUser.body.data.error).toBe('user not found');
    const refusedPartner = await stack.api.post(
      '/api/v1/laas/user/upgrade-tier',
      { userId: user.userId, partnerId: other.partnerId, tierId: gold.body.data.id },
      { token: p.accessToken },
    );
    expect(refusedPartner.status).toBe(404);
    const badGuid = await stack.api.post(
      '/api/v1/laas/user/upgrade-tier',
      { userId: 'x', tierId: gold.body.data.id },
      { token: p.accessToken },
    );
    expect(badGuid.body.data.error).toBe('userId must be a valid GUID');
  });
});
