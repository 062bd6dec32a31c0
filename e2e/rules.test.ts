import { randomUUID } from 'node:crypto';
import { ruleRewardedEvent } from '@coin/contracts';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { createRule, onboardUsers, queryRulesDb, reward, userLedger, waitFor } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let partner: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    REWARD_RETRY_POLL_MS: '50',
    REWARD_RETRY_BASE_MS: '100',
    REWARD_RETRY_MAX_MS: '400',
    RULES_CALL_TIMEOUT_MS: '2000',
  });
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await stack?.stop();
});

const rulesDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryRulesDb<T>(stack.env.RULES_DATABASE_URL!, sql, params);

function expectFailure(res: { status: number; body: any }, status: number, appErrorCode: string) {
  expect(res.status).toBe(status);
  expect(res.body.status).toBe('failed');
  expect(res.body.data.appErrorCode).toBe(appErrorCode);
  expect(typeof res.body.data.errorType).toBe('string');
  expect(typeof res.body.data.error).toBe('string');
}

const uniqueName = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

describe('create rule', () => {
  it('creates by GET with a JSON body, exactly as the specification shows', async () => {
    const name = uniqueName('daily login');
    const res = await stack.api.get('/api/v1/laas/rules/create-rule', {
      token: partner.accessToken,
      body: { name, coinValue: '100', maxNumberOfParticipant: '50', condition: 'log in once a day' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      message: 'rule created successfully.',
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name,
        coinValue: '100',
        condition: 'log in once a day',
        maxNumberOfParticipant: '50',
        status: 'active',
      },
    });
  });

  it('creates by POST too, keeping numeric text exact', async () => {
    const name = uniqueName('referral');
    const res = await createRule(stack.api, partner.accessToken, {
      name,
      coinValue: '12.50',
      maxNumberOfParticipant: 7,
      condition: 'refer a friend',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('rule created successfully.');
    expect(res.body.data).toMatchObject({ name, coinValue: '12.50', maxNumberOfParticipant: '7' });
    expect(res.body.data).not.toHaveProperty('userId');
  });

  it('refuses a missing name, an upper-case name and a duplicate name', async () => {
    const missing = await createRule(stack.api, partner.accessToken, {
      coinValue: '1',
      maxNumberOfParticipant: '1',
    });
    expectFailure(missing, 400, 'Bad request');
    expect(missing.body.message).toBe('invalid data provided');
    expect(missing.body.data.error).toBe('name is required');

    const upper = await stack.api.get('/api/v1/laas/rules/create-rule', {
      token: partner.accessToken,
      body: { name: 'Daily Login', coinValue: '1', maxNumberOfParticipant: '1' },
    });
    expectFailure(upper, 400, 'Bad request');
    expect(upper.body.data.error).toBe('name must be lower case');

    const name = uniqueName('once');
    const body = { name, coinValue: '1', maxNumberOfParticipant: '1', condition: '' };
    expect((await createRule(stack.api, partner.accessToken, body)).status).toBe(200);
    const duplicate = await createRule(stack.api, partner.accessToken, body);
    expectFailure(duplicate, 409, 'DUPLICATE');
    expect(duplicate.body.data.error).toContain(name);
  });

  it('validates the numeric text and requires a token', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ coinValue: '0' }, 'coinValue must be greater than 0'],
      [{ coinValue: '1.234' }, 'coinValue must be numeric text with at most 2 decimal places'],
      [{ coinValue: 'ten' }, 'coinValue must be numeric text with at most 2 decimal places'],
      [{ coinValue: '1000000001' }, 'coinValue must be at most 1000000000'],
      [{ maxNumberOfParticipant: '0' }, 'maxNumberOfParticipant must be at least 1'],
      [{ maxNumberOfParticipant: '2.5' }, 'maxNumberOfParticipant must be a whole number as text'],
      [{ maxNumberOfParticipant: undefined }, 'maxNumberOfParticipant is required'],
    ];
    for (const [override, error] of cases) {
      const res = await createRule(stack.api, partner.accessToken, {
        name: uniqueName('bad'),
        coinValue: '5',
        maxNumberOfParticipant: '5',
        ...override,
      });
      expectFailure(res, 400, 'Bad request');
      expect(res.body.data.error).toBe(error);
    }
    const anonymous = await createRule(stack.api, '', {
      name: uniqueName('anon'),
      coinValue: '1',
      maxNumberOfParticipant: '1',
    });
    expectFailure(anonymous, 401, 'UNAUTHORIZED');
  });
});

describe('list and update rules', () => {
  it('pages 25 rules by 10 with the specification pagination block, and filters by status after PATCH', async () => {
    const owner = await registerAndLogin(stack.api);
    const created: string[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await createRule(stack.api, owner.accessToken, {
        name: `rule ${String(i).padStart(2, '0')}`,
        coinValue: '1',
        maxNumberOfParticipant: '10',
        condition: `condition ${i}`,
      });
      expect(res.status).toBe(200);
      created.push(res.body.data.id);
    }
    const page = (n: number, extra: Record<string, string> = {}) =>
      stack.api.get('/api/v1/laas/rules', {
        token: owner.accessToken,
        query: { page: n, limit: 10, ...extra },
      });

    const [p1, p2, p3] = [await page(1), await page(2), await page(3)];
    expect(p1.status).toBe(200);
    expect(p1.body.status).toBe('success');
    const block = (r: typeof p1) => {
      const { data: _rows, ...rest } = r.body.data;
      return rest;
    };
    expect(block(p1)).toEqual({ count: 25, currentpage: 1, nextpage: 2, prevpage: null, lastpage: 3 });
    expect(block(p2)).toEqual({ count: 25, currentpage: 2, nextpage: 3, prevpage: 1, lastpage: 3 });
    expect(block(p3)).toEqual({ count: 25, currentpage: 3, nextpage: null, prevpage: 2, lastpage: 3 });
    expect(p1.body.data.data).toHaveLength(10);
    expect(p3.body.data.data).toHaveLength(5);
    const listed = [...p1.body.data.data, ...p2.body.data.data, ...p3.body.data.data];
    expect(new Set(listed.map((r) => r.id))).toEqual(new Set(created));
    // Newest first.
    expect(listed[0].name).toBe('rule 24');
    expect(listed[24].name).toBe('rule 00');
    expect(Object.keys(listed[0]).sort()).toEqual(
      [
        'id',
        'name',
        'coinValue',
        'condition',
        'maxNumberOfParticipant',
        'status',
        'userId',
        'participants',
      ].sort(),
    );
    expect(listed[0].userId).toBe(owner.partnerId);

    const defaults = await stack.api.get('/api/v1/laas/rules', { token: owner.accessToken });
    expect(defaults.body.data.data).toHaveLength(20);
    expect(defaults.body.data.lastpage).toBe(2);
    expectFailure(
      await stack.api.get('/api/v1/laas/rules', { token: owner.accessToken, query: { limit: 101 } }),
      400,
      'Bad request',
    );

    for (const id of created.slice(0, 3)) {
      const patched = await stack.api.patch(
        `/api/v1/laas/rules/${id}`,
        { status: 'inactive' },
        { token: owner.accessToken },
      );
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ id, status: 'inactive' });
    }
    const inactive = await page(1, { status: 'inactive' });
    expect(inactive.body.data.count).toBe(3);
    expect(new Set(inactive.body.data.data.map((r: any) => r.id))).toEqual(new Set(created.slice(0, 3)));
    expect(inactive.body.data.data.every((r: any) => r.status === 'inactive')).toBe(true);
    const active = await page(3, { status: 'active' });
    expect(active.body.data).toMatchObject({ count: 22, currentpage: 3, nextpage: null, lastpage: 3 });
    expect(active.body.data.data).toHaveLength(2);
    expectFailure(await page(1, { status: 'paused' }), 400, 'Bad request');
    expectFailure(
      await stack.api.patch(
        `/api/v1/laas/rules/${created[0]}`,
        { status: 'on' },
        { token: owner.accessToken },
      ),
      400,
      'Bad request',
    );
    expectFailure(
      await stack.api.patch(
        `/api/v1/laas/rules/${randomUUID()}`,
        { status: 'active' },
        { token: owner.accessToken },
      ),
      404,
      'NOT_FOUND',
    );
  });
});

describe('reward by rule', () => {
  it('credits the rule coins once per user, answering a repeat with the first ledger entry', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const ruleName = uniqueName('first purchase');
    const rule = await partnerClient(stack.api, partner).createRule({
      name: ruleName,
      coinValue: '25.50',
      maxNumberOfParticipant: '5',
      condition: 'first purchase',
    });
    const first = await reward(stack.api, partner.accessToken, { userId, ruleName });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('success');
    expect(first.body.data.isExisting).toBe(false);
    expect(first.body.data.coinsLedger).toMatchObject({
      userId,
      debitOrCredit: 'CR',
      coins: 25.5,
      transactionType: 'partner_user_transfer',
      narration: `reward: ${ruleName}`,
      status: 'Success',
    });
    const again = await reward(stack.api, partner.accessToken, { userId, ruleName });
    expect(again.status).toBe(200);
    expect(again.body.data.isExisting).toBe(true);
    expect(again.body.data.coinsLedger.id).toBe(first.body.data.coinsLedger.id);
    const ledger = await userLedger(stack.api, partner.accessToken, userId);
    expect(ledger.map((e) => e.id)).toEqual([first.body.data.coinsLedger.id]);

    // The reward is published once, with the pinned schema (points = coins).
    const [row] = await waitFor('the reward event to be published', async () => {
      const rows = await rulesDb(
        `SELECT payload, published_at FROM outbox WHERE subject = 'events.rules.rewarded'
          AND payload->>'ruleId' = $1`,
        [rule.id],
      );
      return rows.length && rows.every((r) => r.published_at) ? rows : undefined;
    });
    const event = ruleRewardedEvent.parse(row.payload);
    expect(event).toMatchObject({
      partnerId: partner.partnerId,
      ruleId: rule.id,
      ruleName,
      userId,
      coins: '25.50',
      points: 25.5,
      ledgerEntryId: first.body.data.coinsLedger.id,
    });
  });

  it('pays exactly the cap: 20 distinct users at once on a rule capped at 3', async () => {
    const users = await onboardUsers(stack.api, partner.accessToken, 20);
    const ruleName = uniqueName('launch week');
    const rule = await partnerClient(stack.api, partner).createRule({
      name: ruleName,
      coinValue: '10',
      maxNumberOfParticipant: '3',
      condition: 'first three',
    });
    const results = await Promise.all(
      users.map((userId) => reward(stack.api, partner.accessToken, { userId, ruleName })),
    );
    const paid = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 422);
    expect(paid).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const r of refused) expectFailure(r, 422, 'RULE_CAP_REACHED');

    const ledgers = await Promise.all(users.map((u) => userLedger(stack.api, partner.accessToken, u)));
    const credited = users.filter((_, i) => ledgers[i].length > 0);
    expect(credited).toHaveLength(3);
    expect(new Set(credited)).toEqual(new Set(paid.map((r) => r.body.data.coinsLedger.userId)));
    expect(ledgers.flat().every((e) => e.coins === 10 && e.debitOrCredit === 'CR')).toBe(true);

    const [state] = await rulesDb(
      `SELECT r.participants, count(p.id)::int AS rows,
              count(p.id) FILTER (WHERE p.status = 'paid')::int AS paid
         FROM rules r LEFT JOIN participations p ON p.rule_id = r.id WHERE r.id = $1 GROUP BY r.id`,
      [rule.id],
    );
    expect(state).toEqual({ participants: 3, rows: 3, paid: 3 });
  });

  it('rewards the same user once when asked twice at the same time', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const ruleName = uniqueName('double tap');
    await partnerClient(stack.api, partner).createRule({
      name: ruleName,
      coinValue: '3',
      maxNumberOfParticipant: '10',
    });
    const both = await Promise.all(
      [1, 2].map(() => reward(stack.api, partner.accessToken, { userId, ruleName })),
    );
    // Both ask the wallet under the same key: whichever reaches it second gets that payment, or
    // 409 IDEMPOTENCY_IN_PROGRESS while the first is still running. Either way one payment.
    for (const r of both) expect([200, 409]).toContain(r.status);
    const paid = both.filter((r) => r.status === 200);
    expect(paid.length).toBeGreaterThanOrEqual(1);
    const ledger = await userLedger(stack.api, partner.accessToken, userId);
    expect(ledger).toHaveLength(1);
    expect(ledger[0].coins).toBe(3);
    for (const r of paid) expect(r.body.data.coinsLedger.id).toBe(ledger[0].id);
    const again = await reward(stack.api, partner.accessToken, { userId, ruleName });
    expect(again.body.data).toMatchObject({ isExisting: true, coinsLedger: { id: ledger[0].id } });
  });

  it('refuses an inactive rule, an unknown rule and an unknown user, without using a place', async () => {
    const [userId, second] = await onboardUsers(stack.api, partner.accessToken, 2);
    const ruleName = uniqueName('single seat');
    const rule = await partnerClient(stack.api, partner).createRule({
      name: ruleName,
      coinValue: '1',
      maxNumberOfParticipant: '1',
    });
    const off = await stack.api.patch(
      `/api/v1/laas/rules/${rule.id}`,
      { status: 'inactive' },
      { token: partner.accessToken },
    );
    expect(off.status).toBe(200);
    expectFailure(await reward(stack.api, partner.accessToken, { userId, ruleName }), 422, 'RULE_INACTIVE');
    await stack.api.patch(
      `/api/v1/laas/rules/${rule.id}`,
      { status: 'active' },
      { token: partner.accessToken },
    );
    expectFailure(
      await reward(stack.api, partner.accessToken, { userId, ruleName: uniqueName('no such rule') }),
      404,
      'NOT_FOUND',
    );
    expectFailure(
      await reward(stack.api, partner.accessToken, { userId: randomUUID(), ruleName }),
      404,
      'NOT_FOUND',
    );
    expectFailure(
      await reward(stack.api, partner.accessToken, { userId: 'not-a-guid', ruleName }),
      400,
      'Bad request',
    );
    // The single place is still free for a real user; then the rule is full.
    expect((await reward(stack.api, partner.accessToken, { userId, ruleName })).status).toBe(200);
    expectFailure(
      await reward(stack.api, partner.accessToken, { userId: second, ruleName }),
      422,
      'RULE_CAP_REACHED',
    );
  });

  it('honours Idempotency-Key: the same request replays, another body with the key is refused', async () => {
    const [userId, other] = await onboardUsers(stack.api, partner.accessToken, 2);
    const ruleName = uniqueName('keyed');
    await partnerClient(stack.api, partner).createRule({
      name: ruleName,
      coinValue: '2',
      maxNumberOfParticipant: '5',
    });
    const headers = { 'idempotency-key': `reward-${randomUUID()}` };
    const first = await reward(stack.api, partner.accessToken, { userId, ruleName }, headers);
    expect(first.status).toBe(200);
    const replay = await reward(stack.api, partner.accessToken, { userId, ruleName }, headers);
    expect(replay.body.data).toMatchObject({
      isExisting: true,
      coinsLedger: { id: first.body.data.coinsLedger.id },
    });
    expectFailure(
      await reward(stack.api, partner.accessToken, { userId: other, ruleName }, headers),
      422,
      'IDEMPOTENCY_CONFLICT',
    );
    expect(await userLedger(stack.api, partner.accessToken, other)).toHaveLength(0);
  });
});

describe('tenancy', () => {
  it("keeps partner A's rules invisible and unusable to partner B", async () => {
    const a = await registerAndLogin(stack.api);
    const b = await registerAndLogin(stack.api);
    const ruleName = uniqueName('members only');
    const rule = await partnerClient(stack.api, a).createRule({
      name: ruleName,
      coinValue: '5',
      maxNumberOfParticipant: '5',
    });
    const [userOfB] = await onboardUsers(stack.api, b.accessToken, 1);

    const listB = await stack.api.get('/api/v1/laas/rules', { token: b.accessToken });
    expect(listB.body.data).toMatchObject({ count: 0, data: [] });
    expectFailure(
      await stack.api.patch(
        `/api/v1/laas/rules/${rule.id}`,
        { status: 'inactive' },
        { token: b.accessToken },
      ),
      404,
      'NOT_FOUND',
    );
    expectFailure(await reward(stack.api, b.accessToken, { userId: userOfB, ruleName }), 404, 'NOT_FOUND');
    // A's rule is untouched, and B may use the same name for a rule of its own.
    const listA = await stack.api.get('/api/v1/laas/rules', { token: a.accessToken });
    expect(listA.body.data.data).toMatchObject([{ id: rule.id, status: 'active' }]);
    await partnerClient(stack.api, b).createRule({
      name: ruleName,
      coinValue: '1',
      maxNumberOfParticipant: '1',
    });
    // A cannot reward B's user under A's rule either: the user is unknown to A.
    expectFailure(await reward(stack.api, a.accessToken, { userId: userOfB, ruleName }), 404, 'NOT_FOUND');
  });
});

describe('wallet outage', () => {
  it('keeps the reward pending while the wallet is down and pays it exactly once when it is back', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const ruleName = uniqueName('outage');
    const rule = await partnerClient(stack.api, partner).createRule({
      name: ruleName,
      coinValue: '7',
      maxNumberOfParticipant: '2',
    });
    const state = async () => {
      const [row] = await rulesDb(
        `SELECT r.participants, p.status, p.ledger_entry_id
           FROM rules r LEFT JOIN participations p ON p.rule_id = r.id AND p.user_id = $2 WHERE r.id = $1`,
        [rule.id, userId],
      );
      return row;
    };

    await stack.stopService('wallet');
    let during: Awaited<ReturnType<typeof state>>;
    try {
      const res = await reward(stack.api, partner.accessToken, { userId, ruleName });
      expectFailure(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.body.data.error).toContain('pending');
      during = await state();
      // A retry while the wallet is still down stays pending too, and takes no second place.
      expectFailure(
        await reward(stack.api, partner.accessToken, { userId, ruleName }),
        503,
        'SERVICE_UNAVAILABLE',
      );
      expect(await state()).toEqual(during);
    } finally {
      await stack.startService('wallet');
    }
    expect(during).toEqual({ participants: 1, status: 'pending', ledger_entry_id: null });

    const after = await waitFor('the retrier to pay the pending reward', async () => {
      const s = await state();
      return s.status === 'paid' ? s : undefined;
    });
    expect(after.participants).toBe(1);
    const ledger = await userLedger(stack.api, partner.accessToken, userId);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      id: after.ledger_entry_id,
      coins: 7,
      narration: `reward: ${ruleName}`,
    });
    const replay = await reward(stack.api, partner.accessToken, { userId, ruleName });
    expect(replay.body.data).toMatchObject({ isExisting: true, coinsLedger: { id: after.ledger_entry_id } });
  });
});
