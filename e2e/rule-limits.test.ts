import { randomUUID } from 'node:crypto';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { createRule, onboardUsers, reward, userLedger } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let partner: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules'], { AUTH_RATE_LIMIT_MAX: '1000' });
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await stack?.stop();
});

const uniqueName = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;
const DAY_MS = 86_400_000;

async function newRule(body: Record<string, unknown>): Promise<string> {
  const name = uniqueName('limited');
  const res = await createRule(stack.api, partner.accessToken, {
    name,
    coinValue: '5',
    maxNumberOfParticipant: '1000',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return name;
}

const rewardAt = (userId: string, ruleName: string, occurredAt?: Date) =>
  reward(stack.api, partner.accessToken, { userId, ruleName, occurredAt: occurredAt?.toISOString() });

const codeOf = (res: { status: number; body: any }) =>
  res.status === 200 ? 'paid' : `${res.status} ${res.body.data?.appErrorCode}`;

describe('rule limits', () => {
  it("counts a daily limit in the partner's time zone: its midnight starts a new day", async () => {
    const settings = await stack.api.put(
      '/api/v1/laas/rules/settings',
      { timeZone: 'Asia/Tokyo' },
      {
        token: partner.accessToken,
      },
    );
    expect(settings.status).toBe(200);
    expect(settings.body.data).toEqual({ timeZone: 'Asia/Tokyo' });
    const read = await stack.api.get('/api/v1/laas/rules/settings', { token: partner.accessToken });
    expect(read.body.data).toEqual({ timeZone: 'Asia/Tokyo' });

    const ruleName = await newRule({ userLimit: { times: 2, per: 'day' } });
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    // Tokyo is UTC+9 all year: its last midnight at least two minutes ago, which is 15:00 UTC.
    const tokyo = 9 * 3600_000;
    let midnight = Math.floor((Date.now() + tokyo) / DAY_MS) * DAY_MS - tokyo;
    if (Date.now() - midnight < 120_000) midnight -= DAY_MS;
    const before = new Date(midnight - 60_000);
    const after = new Date(midnight + 60_000);

    const evening = [];
    for (let i = 0; i < 3; i++) evening.push(codeOf(await rewardAt(userId, ruleName, before)));
    expect(evening).toEqual(['paid', 'paid', '422 RULE_DAILY_LIMIT_REACHED']);
    const refused = await rewardAt(userId, ruleName, before);
    expect(refused.body.data.error).toBe(
      `rule ${ruleName} has already rewarded this user 2 time(s) this day`,
    );
    // Two minutes later, the same UTC day but the next day in Tokyo: two more are paid.
    const morning = [];
    for (let i = 0; i < 3; i++) morning.push(codeOf(await rewardAt(userId, ruleName, after)));
    expect(morning).toEqual(['paid', 'paid', '422 RULE_DAILY_LIMIT_REACHED']);

    const ledger = await userLedger(stack.api, partner.accessToken, userId);
    expect(ledger.map((e: any) => e.coins)).toEqual([5, 5, 5, 5]);
  });

  it('answers the same reward for the same Idempotency-Key, and counts it once', async () => {
    const ruleName = await newRule({ userLimit: { times: 2, per: 'week' } });
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const key = { 'Idempotency-Key': `order-${randomUUID()}` };
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => reward(stack.api, partner.accessToken, { userId, ruleName }, key)),
    );
    const answers = racing.filter((r) => r.status === 200);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    const again = await reward(stack.api, partner.accessToken, { userId, ruleName }, key);
    expect(again.body.data.isExisting).toBe(true);
    for (const r of answers) expect(r.body.data.coinsLedger.id).toBe(again.body.data.coinsLedger.id);
    expect(codeOf(await rewardAt(userId, ruleName))).toBe('paid');
    expect(codeOf(await rewardAt(userId, ruleName))).toBe('422 RULE_WEEKLY_LIMIT_REACHED');
    expect(await userLedger(stack.api, partner.accessToken, userId)).toHaveLength(2);
  });

  it('pays only inside the validity window, read at the time of the event', async () => {
    const now = Date.now();
    const later = await newRule({ startsAt: new Date(now + DAY_MS).toISOString() });
    const ended = await newRule({
      startsAt: new Date(now - 3 * DAY_MS).toISOString(),
      endsAt: new Date(now - DAY_MS).toISOString(),
    });
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    expect(codeOf(await rewardAt(userId, later))).toBe('422 RULE_NOT_STARTED');
    expect(codeOf(await rewardAt(userId, ended))).toBe('422 RULE_ENDED');
    expect(codeOf(await rewardAt(userId, ended, new Date(now - 4 * DAY_MS)))).toBe('422 RULE_NOT_STARTED');
    expect(codeOf(await rewardAt(userId, ended, new Date(now - 2 * DAY_MS)))).toBe('paid');
  });

  it('refuses bad limits, windows, times and zones naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ userLimit: { times: 0, per: 'day' } }, 'userLimit.times'],
      [{ userLimit: { times: 1, per: 'year' } }, 'userLimit.per'],
      [{ budget: '0' }, 'budget must be greater than 0'],
      [{ budget: '1.234' }, 'budget must be numeric text with at most 2 decimal places'],
      [{ startsAt: '2026-12-01T00:00:00Z', endsAt: '2026-11-30T00:00:00Z' }, 'endsAt must be after startsAt'],
    ];
    for (const [body, error] of cases) {
      const res = await createRule(stack.api, partner.accessToken, {
        name: uniqueName('bad'),
        coinValue: '1',
        maxNumberOfParticipant: '1',
        ...body,
      });
      expect(res.status).toBe(400);
      expect(res.body.data.error).toContain(error);
    }
    const ruleName = await newRule({});
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const old = await rewardAt(userId, ruleName, new Date(Date.now() - 8 * DAY_MS));
    expect(old.status).toBe(400);
    expect(old.body.data.error).toBe('occurredAt must be within the last 7 days');
    for (const timeZone of ['Mars/Olympus', '+01:00', '']) {
      const res = await stack.api.put(
        '/api/v1/laas/rules/settings',
        { timeZone },
        { token: partner.accessToken },
      );
      expect(res.status, timeZone).toBe(400);
      expect(res.body.data.error).toMatch(/^timeZone /);
    }
  });
});

describe('rule budgets', () => {
  it('pays exactly the budget when rewards of many users race for it, and not a coin over', async () => {
    const ruleName = await newRule({ coinValue: '7', budget: '70' });
    const users = await onboardUsers(stack.api, partner.accessToken, 25);
    const results = await Promise.all(users.map((userId) => rewardAt(userId, ruleName)));
    const codes = results.map(codeOf);
    expect(codes.filter((c) => c === 'paid')).toHaveLength(10);
    expect(codes.filter((c) => c !== 'paid')).toEqual(Array(15).fill('422 RULE_BUDGET_EXHAUSTED'));
    const ledgers = await Promise.all(users.map((u) => userLedger(stack.api, partner.accessToken, u)));
    expect(ledgers.flat().reduce((sum: number, e: any) => sum + e.coins, 0)).toBe(70);
    const listed = await partnerClient(stack.api, partner).listRules({ limit: 100 });
    const rule = listed.data.find((r) => r.name === ruleName)!;
    expect(rule).toMatchObject({ budget: '70', spent: '70', participants: 10 });
  });

  it("keeps a limited rule's budget exact when one user's rewards race for it", async () => {
    const ruleName = await newRule({ coinValue: '3', budget: '30', userLimit: { times: 100, per: 'month' } });
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const results = await Promise.all(Array.from({ length: 20 }, () => rewardAt(userId, ruleName)));
    const codes = results.map(codeOf);
    expect(codes.filter((c) => c === 'paid')).toHaveLength(10);
    expect(codes.filter((c) => c !== 'paid')).toEqual(Array(10).fill('422 RULE_BUDGET_EXHAUSTED'));
    const ledger = await userLedger(stack.api, partner.accessToken, userId);
    expect(ledger.reduce((sum: number, e: any) => sum + e.coins, 0)).toBe(30);
  });

  it("gives back a refused payment's count, coins and place, so the limit and the budget stay exact", async () => {
    const ruleName = await newRule({ coinValue: '7', budget: '70', userLimit: { times: 2, per: 'day' } });
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const sdk = partnerClient(stack.api, partner);
    const { issuanceLimit: before, outstanding } = await sdk.getTreasury();
    await sdk.setTreasury({ issuanceLimit: outstanding + 10 });
    expect(codeOf(await rewardAt(userId, ruleName))).toBe('paid');
    // The wallet refuses the second for good (issuance limit): nothing of it is kept.
    expect(codeOf(await rewardAt(userId, ruleName))).toBe('422 ISSUANCE_LIMIT_REACHED');
    const listed = async () => (await sdk.listRules({ limit: 100 })).data.find((r) => r.name === ruleName)!;
    expect(await listed()).toMatchObject({ spent: '7', participants: 1 });
    await sdk.setTreasury({ issuanceLimit: before });
    expect(codeOf(await rewardAt(userId, ruleName))).toBe('paid');
    expect(codeOf(await rewardAt(userId, ruleName))).toBe('422 RULE_DAILY_LIMIT_REACHED');
    expect(await listed()).toMatchObject({ spent: '14', participants: 1 });
  });
});
