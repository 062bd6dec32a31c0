import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { partnerClient, registerAndLogin } from './support/partners.ts';
import { createRule, onboardUsers, reward } from './support/rewards.ts';
import { expectFailure, partner, stack, uniqueName, useRulesStack } from './support/rules-suite.ts';

useRulesStack();

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
