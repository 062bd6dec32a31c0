import { randomUUID } from 'node:crypto';
import { callOperation, connectBus, type NatsConnection } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let nc: NatsConnection;
let partner: RegisteredPartner;
let other: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding'], {
    AUTH_RATE_LIMIT_MAX: '1000',
  });
  nc = await connectBus(stack.env.NATS_URL!, 'onboarding-test', stack.env.NATS_NAMESPACE!);
  partner = await registerAndLogin(stack.api);
  other = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await nc?.close();
  await stack?.stop();
});

async function onboard(p: RegisteredPartner, users: unknown[]) {
  return stack.api.post('/api/v1/laas/onboard-users', { users }, { token: p.accessToken });
}

async function waitForUser(p: RegisteredPartner, userId: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await stack.api.get(`/api/v1/laas/users/${userId}`, { token: p.accessToken });
    if (res.status === 200 || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('onboard-users', () => {
  it('answers with the specification shape at once and stores the users', async () => {
    const users = [
      { userId: randomUUID(), userData: { name: 'Ada', tag: 'ada' } },
      { userId: randomUUID(), userData: {} },
      { userId: randomUUID(), userData: { nested: { level: 2 } } },
    ];
    const res = await onboard(partner, users);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'status']);
    expect(res.body.status).toBe('success');
    expect(typeof res.body.message).toBe('string');

    const got = await waitForUser(partner, users[0].userId);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: users[0].userId,
      userData: { name: 'Ada', tag: 'ada' },
      tierId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(got.body.data.createdAt).toISOString()).toBe(got.body.data.createdAt);
    expect((await waitForUser(partner, users[2].userId)).body.data.userData).toEqual({
      nested: { level: 2 },
    });
  });

  it('names the offending index of a bad GUID with a 400 envelope', async () => {
    const res = await onboard(partner, [
      { userId: randomUUID(), userData: {} },
      { userId: 'not-a-guid', userData: {} },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'failed',
      message: 'invalid data provided',
      data: {
        errorType: 'invalid',
        appErrorCode: 'Bad request',
        error: 'users[1].userId must be a valid GUID',
      },
    });
  });

  it('refuses a missing users array, a missing userData and a call without a token', async () => {
    expect(
      (await stack.api.post('/api/v1/laas/onboard-users', {}, { token: partner.accessToken })).body.data
        .error,
    ).toBe('users is required');
    expect((await onboard(partner, [{ userId: randomUUID() }])).body.data.error).toBe(
      'users[0].userData is required',
    );
    expect((await onboard(partner, [])).status).toBe(400);
    const anonymous = await stack.api.post('/api/v1/laas/onboard-users', { users: [] });
    expect(anonymous.status).toBe(401);
  });
  it("takes a call larger than NATS's 1 MB max payload (20,000 users, about 1.6 MB)", async () => {
    const users = Array.from({ length: 20_000 }, (_, i) => ({
      userId: randomUUID(),
      userData: { name: `User ${i}` },
    }));
    expect(JSON.stringify({ users }).length).toBeGreaterThan(1024 * 1024);
    const res = await onboard(partner, users);
    expect(res.status).toBe(200);
    const last = await waitForUser(partner, users[users.length - 1].userId);
    expect(last.body.data.userData).toEqual({ name: 'User 19999' });
  });
});

describe('getUser (internal, over NATS)', () => {
  it("returns a partner's stored user and 404 for another partner or an unknown user", async () => {
    const userId = randomUUID();
    await onboard(partner, [{ userId, userData: { plan: 'gold' } }]);
    await waitForUser(partner, userId);
    const user = await callOperation(
      nc,
      onboarding.getUser,
      { partnerId: partner.partnerId, body: { userId } },
      { timeoutMs: 2000 },
    );
    expect(user).toMatchObject({ userId, userData: { plan: 'gold' }, tierId: null });
    await expect(
      callOperation(
        nc,
        onboarding.getUser,
        { partnerId: other.partnerId, body: { userId } },
        { timeoutMs: 2000 },
      ),
    ).rejects.toMatchObject({ status: 404, details: { appErrorCode: 'NOT_FOUND' } });
    const missing = await stack.api.get(`/api/v1/laas/users/${userId}`, { token: other.accessToken });
    expect(missing.status).toBe(404);
    expect(missing.body.data.appErrorCode).toBe('NOT_FOUND');
  });
});
