import { randomUUID } from 'node:crypto';
import { eventuallyPasses } from '@coin/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventPublisher } from './support/leaderboard.ts';
import {
  COIN_BOARD,
  coinBoard,
  events,
  POINTS_BOARD,
  seedMarch,
  stack,
  useLeaderboardStack,
} from './support/leaderboard-suite.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';

useLeaderboardStack();

describe('coin leaderboard (events published on the bus, read through the gateway)', () => {
  let partner: RegisteredPartner;
  let users: Awaited<ReturnType<typeof seedMarch>>;

  beforeAll(async () => {
    partner = await registerAndLogin(stack.api);
    users = await seedMarch(partner);
    await eventuallyPasses(async () => {
      const res = await coinBoard(partner, { year: 2024, month: 3, limit: 10 });
      expect(res.body.data.count).toBe('5');
    });
  });

  it('returns exactly the specification shape, ordered with the tie-break', async () => {
    const res = await coinBoard(partner, { year: 2024, month: 3, page: 1, limit: 10, userId: users.top });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      message: 'leaderboard returned',
      data: {
        userPosition: { userId: users.top, amount: '300.00', position: 1 },
        data: [
          { userId: users.top, coins: '300.00' },
          { userId: users.early, coins: '150.00' },
          { userId: users.late, coins: '150.00' },
          { userId: users.lowId, coins: '20.50' },
          { userId: users.highId, coins: '20.50' },
        ],
        count: '5',
        currentpage: 1,
        nextpage: null,
        prevpage: null,
        lastpage: 1,
      },
    });
  });

  it('pages, and gives the position of a middle user and null for a user without coins', async () => {
    const page2 = await coinBoard(partner, { year: 2024, month: 3, page: 2, limit: 2, userId: users.late });
    expect(page2.body.data).toEqual({
      userPosition: { userId: users.late, amount: '150.00', position: 3 },
      data: [
        { userId: users.late, coins: '150.00' },
        { userId: users.lowId, coins: '20.50' },
      ],
      count: '5',
      currentpage: 2,
      nextpage: 3,
      prevpage: 1,
      lastpage: 3,
    });
    const nobody = await coinBoard(partner, { year: 2024, month: 3, userId: randomUUID() });
    expect(nobody.body.data.userPosition).toBeNull();
    const noUser = await coinBoard(partner, { year: 2024, month: 3 });
    expect(noUser.body.data.userPosition).toBeNull();
  });

  it('selects the calendar month (UTC) by month and year', async () => {
    const feb = await coinBoard(partner, { year: 2024, month: 2 });
    expect(feb.body.data.data).toEqual([{ userId: users.late, coins: '7.00' }]);
    const apr = await coinBoard(partner, { year: 2024, month: 4 });
    expect(apr.body.data.data).toEqual([{ userId: users.late, coins: '9.00' }]);
    const empty = await coinBoard(partner, { year: 2023, month: 3 });
    expect(empty.body.data).toMatchObject({ data: [], count: '0', userPosition: null, lastpage: 1 });
  });

  it("never shows another partner's coins", async () => {
    const other = await registerAndLogin(stack.api);
    const res = await coinBoard(other, { year: 2024, month: 3, userId: users.top });
    expect(res.body.data).toMatchObject({ data: [], count: '0', userPosition: null });
  });

  it('refuses an unknown type, a bad month and a bad userId with the envelope, and requires a token', async () => {
    const bad = await coinBoard(partner, { type: 'spender' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: 'failed',
      message: 'invalid data provided',
      data: { errorType: 'invalid', appErrorCode: 'Bad request', error: 'type must be one of: earner' },
    });
    expect((await coinBoard(partner, { month: 13 })).body.data.error).toBe('month must be at most 12');
    expect((await coinBoard(partner, { userId: 'nope' })).body.data.error).toBe(
      'userId must be a valid GUID',
    );
    const anonymous = await stack.api.get(COIN_BOARD, { query: { type: 'earner' } });
    expect(anonymous.status).toBe(401);
  });

  it('counts a redelivered event once', async () => {
    const p = await registerAndLogin(stack.api);
    const user = randomUUID();
    const event = await events.credit(p.partnerId, user, '5.05', '2024-05-01T00:00:00.000Z');
    // The same event again under another Nats-Msg-Id: JetStream's duplicate window does not catch it.
    await events.publish('events.wallet.transferCompleted', event);
    await events.credit(p.partnerId, user, '1', '2024-05-02T00:00:00.000Z');
    await eventuallyPasses(async () => {
      const res = await coinBoard(p, { year: 2024, month: 5 });
      expect(res.body.data.data).toEqual([{ userId: user, coins: '6.05' }]);
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await coinBoard(p, { year: 2024, month: 5 })).body.data.data).toEqual([
      { userId: user, coins: '6.05' },
    ]);
  });
});

describe('points leaderboard', () => {
  let partner: RegisteredPartner;
  let userIds: string[];
  let stored: Awaited<ReturnType<EventPublisher['onboarded']>>;

  beforeAll(async () => {
    partner = await registerAndLogin(stack.api);
    userIds = Array.from({ length: 3 }, () => randomUUID());
    stored = await events.onboarded(partner.partnerId, userIds);
    await events.reward(partner.partnerId, userIds[0], 10, '2024-06-01T00:00:00.000Z');
    await events.reward(partner.partnerId, userIds[1], 25.5, '2024-06-02T00:00:00.000Z');
    await events.reward(partner.partnerId, userIds[0], 5, '2024-06-03T00:00:00.000Z');
    await eventuallyPasses(async () => {
      const res = await stack.api.get(POINTS_BOARD, { token: partner.accessToken });
      expect(res.body.data.data.map((e: any) => e.points)).toEqual([25.5, 15]);
      expect(res.body.data.data.every((e: any) => e.user !== null)).toBe(true);
    });
  });

  it('returns exactly the specification shape with the stored user', async () => {
    const res = await stack.api.get(POINTS_BOARD, {
      token: partner.accessToken,
      query: { page: 1, take: 10, partnerId: partner.partnerId, userId: userIds[0] },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    const { data } = res.body;
    expect(Object.keys(data).sort()).toEqual(
      ['userPosition', 'data', 'count', 'currentpage', 'nextpage', 'prevpage', 'lastpage'].sort(),
    );
    expect(data.userPosition).toEqual({ userId: userIds[0], amount: 15, position: 2 });
    expect(data).toMatchObject({ count: 2, currentpage: 1, nextpage: null, prevpage: null, lastpage: 1 });
    const [first, second] = data.data;
    expect(Object.keys(first).sort()).toEqual(['createdAt', 'id', 'points', 'updatedAt', 'user']);
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.points).toBe(25.5);
    expect(first.user).toEqual({
      id: stored[1].id,
      userId: userIds[1],
      userData: stored[1].userData,
      createdAt: stored[1].createdAt,
      updatedAt: stored[1].updatedAt,
    });
    expect(second).toMatchObject({
      points: 15,
      createdAt: '2024-06-01T00:00:00.000Z',
      updatedAt: '2024-06-03T00:00:00.000Z',
    });
    expect(second.user.userId).toBe(userIds[0]);
  });

  it('gives the top user position 1 and null for a user without points', async () => {
    const top = await stack.api.get(POINTS_BOARD, {
      token: partner.accessToken,
      query: { userId: userIds[1] },
    });
    expect(top.body.data.userPosition).toEqual({ userId: userIds[1], amount: 25.5, position: 1 });
    const none = await stack.api.get(POINTS_BOARD, {
      token: partner.accessToken,
      query: { userId: userIds[2] },
    });
    expect(none.body.data.userPosition).toBeNull();
  });

  it("refuses another partner's board with 404 and pages with take", async () => {
    const other = await registerAndLogin(stack.api);
    const refused = await stack.api.get(POINTS_BOARD, {
      token: other.accessToken,
      query: { partnerId: partner.partnerId },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      status: 'failed',
      data: { errorType: 'not_found', appErrorCode: 'NOT_FOUND' },
    });
    const page2 = await stack.api.get(POINTS_BOARD, {
      token: partner.accessToken,
      query: { page: 2, take: 1 },
    });
    expect(page2.body.data).toMatchObject({
      count: 2,
      currentpage: 2,
      nextpage: null,
      prevpage: 1,
      lastpage: 2,
    });
    expect(page2.body.data.data.map((e: any) => e.user.userId)).toEqual([userIds[0]]);
  });
});
