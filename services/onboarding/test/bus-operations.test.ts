import { randomUUID } from 'node:crypto';
import { onboarding } from '@coin/contracts';
import { eventually, type ServiceAlone, startServiceAlone } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON_ALREADY_STORED } from '../src/domain/processing/process-chunk.ts';
import { startOnboarding } from '../src/service.ts';

let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('onboarding', startOnboarding);
});

afterAll(async () => {
  await svc?.stop();
});

async function onboarded(partnerId: string, users: { userId: string; userData: Record<string, unknown> }[]) {
  const { requestId } = await svc.call(onboarding.onboardUsers, { partnerId, body: { users } });
  await eventually(async () => {
    const found = await Promise.all(
      users.map((u) => svc.call(onboarding.getUser, { partnerId, body: { userId: u.userId } })),
    );
    return found.length === users.length ? found : undefined;
  });
  return requestId;
}

describe('onboarding over the bus', () => {
  it('stores onboarded users for their partner only', async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    await onboarded(partnerId, [{ userId, userData: { tag: 'ada', plan: { tier: 2 } } }]);
    const user = await svc.call(onboarding.getUser, { partnerId, body: { userId } });
    expect(user).toMatchObject({ userId, userData: { tag: 'ada', plan: { tier: 2 } }, tierId: null });
    expect(await svc.call(onboarding.getPartnerUser, { partnerId, params: { userId } })).toEqual(user);

    const stranger = await svc.refusal(onboarding.getUser, { partnerId: randomUUID(), body: { userId } });
    expect(stranger.status).toBe(404);
  });

  it('finds a user by its id in upper case: ids are one form from the edge on', async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    await onboarded(partnerId, [{ userId, userData: {} }]);
    const user = await svc.call(onboarding.getUser, { partnerId, body: { userId: userId.toUpperCase() } });
    expect(user.userId).toBe(userId);
  });

  it('lists a user onboarded twice as a failure of the second request, and keeps the first data', async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    await onboarded(partnerId, [{ userId, userData: { v: 1 } }]);
    const other = randomUUID();
    const second = await onboarded(partnerId, [
      { userId, userData: { v: 2 } },
      { userId: other, userData: {} },
    ]);
    const page = await eventually(async () => {
      const p = await svc.call(onboarding.listFailures, {
        partnerId,
        body: { requestId: second, after: -1, limit: 100 },
      });
      return p.failed.length ? p : undefined;
    });
    expect(page).toEqual({ failed: [{ user: userId, reason: REASON_ALREADY_STORED }], next: null });
    expect((await svc.call(onboarding.getUser, { partnerId, body: { userId } })).userData).toEqual({ v: 1 });
  });

  it('defines tiers with names unique per partner whatever their case, listed by rank a page at a time', async () => {
    const partnerId = randomUUID();
    for (const [name, rank] of [
      ['Gold', 3],
      ['Bronze', 1],
      ['Silver', 2],
    ] as const)
      await svc.call(onboarding.createTier, { partnerId, body: { name, rank } });
    const taken = await svc.refusal(onboarding.createTier, { partnerId, body: { name: 'GOLD', rank: 9 } });
    expect(taken.status).toBe(409);
    await svc.call(onboarding.createTier, { partnerId: randomUUID(), body: { name: 'Gold', rank: 1 } });

    const first = await svc.call(onboarding.listTiers, { partnerId, query: { page: 1, limit: 2 } });
    expect(first.data.map((t) => t.name)).toEqual(['Bronze', 'Silver']);
    expect(first).toMatchObject({ count: 3, currentpage: 1, nextpage: 2, prevpage: null, lastpage: 2 });
    const second = await svc.call(onboarding.listTiers, { partnerId, query: { page: 2, limit: 2 } });
    expect(second.data.map((t) => t.name)).toEqual(['Gold']);
  });

  it("moves a user to one of its partner's tiers, never to another partner's", async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    await onboarded(partnerId, [{ userId, userData: {} }]);
    const gold = await svc.call(onboarding.createTier, { partnerId, body: { name: 'Gold', rank: 1 } });
    const foreign = await svc.call(onboarding.createTier, {
      partnerId: randomUUID(),
      body: { name: 'X', rank: 1 },
    });

    const refused = await svc.refusal(onboarding.upgradeTier, {
      partnerId,
      body: { userId, tierId: foreign.id },
    });
    expect(refused.status).toBe(404);
    await svc.call(onboarding.upgradeTier, { partnerId, body: { userId, tierId: gold.id } });
    expect((await svc.call(onboarding.getUser, { partnerId, body: { userId } })).tierId).toBe(gold.id);
  });

  it('refuses a partner operation that arrives without a partner, and a body outside the contract', async () => {
    const missing = await svc.refusal(onboarding.listTiers, { query: { page: 1, limit: 5 } } as never);
    expect(missing.status).toBe(401);
    const bad = await svc.refusal(onboarding.onboardUsers, {
      partnerId: randomUUID(),
      body: { users: [{ userId: 'not-a-guid', userData: {} }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.details.error).toContain('users[0].userId');
  });
});
