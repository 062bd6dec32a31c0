import { randomUUID } from 'node:crypto';
import { ruleRewardedEvent } from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import { partnerClient } from './support/partners.ts';
import { onboardUsers, reward, userLedger, waitFor } from './support/rewards.ts';
import { expectFailure, partner, rulesDb, stack, uniqueName, useRulesStack } from './support/rules-suite.ts';

useRulesStack();

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
