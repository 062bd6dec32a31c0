import { randomUUID } from 'node:crypto';
import { onboarding, rules, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { type ServiceAlone, startServiceAlone, storedUserReply, transferReply } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRules } from '../src/service.ts';

// Rules alone; onboarding's getUser and the wallet's transferToUser are stand-ins that keep their
// contracts. The wallet stand-in pays once per Idempotency-Key, as the wallet does, and counts.
let svc: ServiceAlone;
const users = new Set<string>();
const payments = new Map<string, { userId: string; coins: number }>();

beforeAll(async () => {
  svc = await startServiceAlone('rules', startRules);
  svc.standIn(onboarding.getUser, async ({ body }) => {
    if (!users.has(body.userId)) throw AppError.notFound('user not found');
    return storedUserReply(body.userId);
  });
  svc.standIn(wallet.transferToUser, async ({ partnerId, body, idempotencyKey }) => {
    const key = `${partnerId}/${idempotencyKey}`;
    const isExisting = payments.has(key);
    if (!isExisting) payments.set(key, { userId: body.userId, coins: body.coins });
    return transferReply({ partnerId, ...body, isExisting });
  });
});

afterAll(async () => {
  await svc?.stop();
});

function newUser(): string {
  const id = randomUUID();
  users.add(id);
  return id;
}

const paidTo = (userId: string) => [...payments.values()].filter((p) => p.userId === userId);

async function newRule(partnerId: string, over: Record<string, string> = {}) {
  return svc.call(rules.createRule, {
    partnerId,
    body: {
      name: `rule_${randomUUID().slice(0, 8)}`,
      coinValue: '12.5',
      maxNumberOfParticipant: '3',
      condition: '',
      ...over,
    },
  });
}

describe('rules over the bus', () => {
  it('creates rules with names unique per partner and lists them by status, a page at a time', async () => {
    const partnerId = randomUUID();
    const a = await newRule(partnerId, { name: 'signup' });
    expect(a).toMatchObject({
      name: 'signup',
      coinValue: '12.5',
      maxNumberOfParticipant: '3',
      status: 'active',
    });
    const dup = await svc.refusal(rules.createRule, {
      partnerId,
      body: { name: 'signup', coinValue: '1', maxNumberOfParticipant: '1', condition: '' },
    });
    expect(dup.status).toBe(409);
    await newRule(randomUUID(), { name: 'signup' });
    const b = await newRule(partnerId);
    await svc.call(rules.updateRule, { partnerId, params: { id: b.id }, body: { status: 'inactive' } });

    const active = await svc.call(rules.listRules, {
      partnerId,
      query: { page: 1, limit: 10, status: 'active' },
    });
    expect(active.data.map((r) => r.id)).toEqual([a.id]);
    const all = await svc.call(rules.listRules, { partnerId, query: { page: 1, limit: 1 } });
    expect(all).toMatchObject({ count: 2, lastpage: 2, nextpage: 2 });
    const foreign = await svc.refusal(rules.updateRule, {
      partnerId: randomUUID(),
      params: { id: a.id },
      body: { status: 'inactive' },
    });
    expect(foreign.status).toBe(404);
  });

  it("pays a rule's coins to a user once: a second reward is the first one, with isExisting", async () => {
    const partnerId = randomUUID();
    const rule = await newRule(partnerId);
    const userId = newUser();
    const first = await svc.call(rules.rewardUser, { partnerId, body: { userId, ruleName: rule.name } });
    expect(first).toMatchObject({ isExisting: false, coinsLedger: { userId, coins: 12.5 } });
    const again = await svc.call(rules.rewardUser, { partnerId, body: { userId, ruleName: rule.name } });
    expect(again).toEqual({ ...first, isExisting: true });
    expect(paidTo(userId)).toEqual([{ userId, coins: 12.5 }]);
  });

  it('rewards exactly as many users as the cap, even when they all ask at once', async () => {
    const partnerId = randomUUID();
    const rule = await newRule(partnerId, { maxNumberOfParticipant: '2' });
    const asking = Array.from({ length: 6 }, newUser);
    const outcomes = await Promise.allSettled(
      asking.map((userId) =>
        svc.call(rules.rewardUser, { partnerId, body: { userId, ruleName: rule.name } }),
      ),
    );
    const refused = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as AppError).details.appErrorCode] : [],
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect(refused).toEqual(Array(4).fill('RULE_CAP_REACHED'));
    expect(asking.flatMap(paidTo)).toHaveLength(2);
  });

  it('refuses a reward of an inactive rule, an unknown rule and an unknown user, paying nothing', async () => {
    const partnerId = randomUUID();
    const rule = await newRule(partnerId);
    const userId = newUser();
    await svc.call(rules.updateRule, { partnerId, params: { id: rule.id }, body: { status: 'inactive' } });
    const inactive = await svc.refusal(rules.rewardUser, {
      partnerId,
      body: { userId, ruleName: rule.name },
    });
    expect(inactive.details.appErrorCode).toBe('RULE_INACTIVE');
    const unknownRule = await svc.refusal(rules.rewardUser, {
      partnerId,
      body: { userId, ruleName: 'nope' },
    });
    expect(unknownRule.status).toBe(404);
    const active = await newRule(partnerId);
    const stranger = await svc.refusal(rules.rewardUser, {
      partnerId,
      body: { userId: randomUUID(), ruleName: active.name },
    });
    expect(stranger.status).toBe(404);
    expect(paidTo(userId)).toEqual([]);
  });

  it('refuses a rule operation without a partner, and rule values outside the contract', async () => {
    const missing = await svc.refusal(rules.listRules, { query: { page: 1, limit: 5 } } as never);
    expect(missing.status).toBe(401);
    for (const over of [
      { coinValue: '0' },
      { coinValue: '1.234' },
      { maxNumberOfParticipant: '0' },
      { name: 'Upper' },
    ]) {
      const bad = await svc.refusal(rules.createRule, {
        partnerId: randomUUID(),
        body: { name: 'x', coinValue: '1', maxNumberOfParticipant: '1', condition: '', ...over },
      });
      expect(bad.status).toBe(400);
    }
  });
});
