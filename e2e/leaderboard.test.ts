import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { eventuallyPasses, type Stack, spawnService } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boardAnswersExpired,
  EventPublisher,
  forgetPartnerIndex,
  indexReady,
  leaveRebuildUnfinished,
  sumCoins,
  wholeCoinBoard,
} from './support/leaderboard.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

const COIN_BOARD = '/api/v1/coins/partner/ep-leaderboard';
const POINTS_BOARD = '/api/v1/laas/leaderboard/new';

let stack: Stack;
let events: EventPublisher;

beforeAll(async () => {
  stack = await stackWith(['identity', 'leaderboard'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    // A killed consumer's unacknowledged events come back after this, not after 30 s.
    LEADERBOARD_ACK_WAIT_MS: '1000',
  });
  events = await EventPublisher.connect(stack.env);
});

afterAll(async () => {
  await events?.close();
  await stack?.stop();
});

function coinBoard(p: RegisteredPartner, query: Record<string, string | number | undefined>) {
  return stack.api.get(COIN_BOARD, { token: p.accessToken, query: { type: 'earner', ...query } });
}

/** Five users of one partner in March 2024, with a tie on 150.00 and a tie at the same instant. */
async function seedMarch(p: RegisteredPartner) {
  const [top, early, late, sameA, sameB] = Array.from({ length: 5 }, () => randomUUID());
  const [lowId, highId] = [sameA, sameB].sort();
  await events.credit(p.partnerId, top, '100.25', '2024-03-02T10:00:00.000Z');
  await events.credit(p.partnerId, top, '199.75', '2024-03-03T10:00:00.000Z');
  // `late` reaches 150.00 on the 6th, `early` on the 5th: early ranks first although published later.
  await events.credit(p.partnerId, late, '150', '2024-03-06T00:00:00.000Z');
  await events.credit(p.partnerId, early, '150.00', '2024-03-05T00:00:00.000Z');
  // Same amount at the same instant: the lower userId ranks first.
  await events.credit(p.partnerId, highId, '20.5', '2024-03-07T00:00:00.000Z');
  await events.credit(p.partnerId, lowId, '20.50', '2024-03-07T00:00:00.000Z');
  // Debits never count, and neighbouring months are other boards.
  await events.credit(p.partnerId, top, '999', '2024-03-08T00:00:00.000Z', 'DE');
  await events.credit(p.partnerId, late, '7', '2024-02-29T23:59:59.999Z');
  await events.credit(p.partnerId, late, '9', '2024-04-01T00:00:00.000Z');
  return { top, early, late, lowId, highId };
}

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

describe('losing the Redis index', () => {
  it('serves the same ranks from Postgres at once and rebuilds, also by the operator command', async () => {
    const p = await registerAndLogin(stack.api);
    const users = Array.from({ length: 20 }, () => randomUUID());
    const credits: Record<string, string[]> = {};
    for (let i = 0; i < 60; i++) {
      const user = users[i % users.length];
      const coins = `${1 + ((i * 37) % 90)}.${String((i * 13) % 100).padStart(2, '0')}`;
      credits[user] = [...(credits[user] ?? []), coins];
      await events.credit(p.partnerId, user, coins, new Date(Date.UTC(2024, 6, 1 + (i % 28))).toISOString());
    }
    const expected = Object.entries(credits).map(([userId, cs]) => ({ userId, coins: sumCoins(cs) }));
    const before = await eventuallyPasses(async () => {
      const board = await wholeCoinBoard(stack.api, p.accessToken, 2024, 7);
      expect([...board].sort((a, b) => a.userId.localeCompare(b.userId))).toEqual(
        [...expected].sort((a, b) => a.userId.localeCompare(b.userId)),
      );
      return board;
    });
    const redisUrl = stack.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    expect(await forgetPartnerIndex(redisUrl, p.partnerId)).toBeGreaterThan(0);
    await boardAnswersExpired();
    // The first read after the loss comes from Postgres, in the same order, and starts the rebuild.
    expect(await wholeCoinBoard(stack.api, p.accessToken, 2024, 7)).toEqual(before);
    await eventuallyPasses(async () => {
      expect(await forgetPartnerIndex(redisUrl, p.partnerId)).toBeGreaterThan(0);
    });
    const run = promisify(execFile);
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'leaderboard:rebuild', '-w', '@coin/leaderboard'],
      {
        env: stack.env,
      },
    );
    expect(stdout).toMatch(/rebuilt \d+ board\(s\)/);
    expect(await wholeCoinBoard(stack.api, p.accessToken, 2024, 7)).toEqual(before);
  });
});

describe('credits arriving during a rebuild', () => {
  it('are all on the board once the rebuilt index is served', async () => {
    const p = await registerAndLogin(stack.api);
    const redisUrl = stack.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    // A board large enough that rebuilding it takes a while.
    const seeded = Array.from({ length: 1500 }, () => randomUUID());
    await Promise.all(seeded.map((u) => events.credit(p.partnerId, u, '1', '2024-09-01T00:00:00.000Z')));
    await eventuallyPasses(async () => {
      expect(await indexReady(redisUrl, p.partnerId, 'coins:2024-09')).toBe(true);
      expect(await wholeCoinBoard(stack.api, p.accessToken, 2024, 9)).toHaveLength(seeded.length);
    });

    expect(await forgetPartnerIndex(redisUrl, p.partnerId)).toBeGreaterThan(0);
    await boardAnswersExpired();
    // The read starts the rebuild; the credits published beside it are applied while it runs.
    const late = Array.from({ length: 100 }, () => randomUUID());
    await Promise.all([
      wholeCoinBoard(stack.api, p.accessToken, 2024, 9),
      ...late.map((u, i) => events.credit(p.partnerId, u, `${2 + i}`, '2024-09-02T00:00:00.000Z')),
    ]);
    await eventuallyPasses(async () => {
      expect(await indexReady(redisUrl, p.partnerId, 'coins:2024-09')).toBe(true);
      const board = await wholeCoinBoard(stack.api, p.accessToken, 2024, 9);
      expect(board).toHaveLength(seeded.length + late.length);
      // The latecomers hold 2 to 101 coins: they are the top of the board, richest first.
      expect(board.slice(0, late.length).map((e) => e.userId)).toEqual([...late].reverse());
    });
  }, 60_000);
});

describe('a rebuild under a steady stream of credits', () => {
  it('is served while the stream goes on, also after losing the index again, and has every credit once it stops', async () => {
    const p = await registerAndLogin(stack.api);
    const redisUrl = stack.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const board = 'coins:2024-10';
    const at = '2024-10-01T00:00:00.000Z';
    const seeded = Array.from({ length: 1500 }, () => randomUUID());
    await Promise.all(seeded.map((u) => events.credit(p.partnerId, u, '1', at)));
    await eventuallyPasses(async () => {
      expect(await indexReady(redisUrl, p.partnerId, board)).toBe(true);
    });
    expect(await forgetPartnerIndex(redisUrl, p.partnerId)).toBeGreaterThan(0);
    await boardAnswersExpired();

    // Eight publishers credit seeded users without a pause until the rebuilt board is served.
    let streaming = true;
    const extra = new Map<string, number>();
    const publishers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; streaming; i++) {
        const user = seeded[(w * 7919 + i * 31) % seeded.length];
        extra.set(user, (extra.get(user) ?? 0) + 1);
        await events.credit(p.partnerId, user, '1', at);
      }
    });
    // The index is lost again and again, each time once a rebuild has swapped its board in; some
    // losses fall while that rebuild still writes the users noted during it.
    let lost = 0;
    const rebuiltBy = Date.now() + 20_000;
    while (lost < 40 && Date.now() < rebuiltBy) {
      if (await indexReady(redisUrl, p.partnerId, board)) {
        await forgetPartnerIndex(redisUrl, p.partnerId);
        lost += 1;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await wholeCoinBoard(stack.api, p.accessToken, 2024, 10);
    let servedWhileStreaming = false;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !servedWhileStreaming) {
      servedWhileStreaming = await indexReady(redisUrl, p.partnerId, board);
      await new Promise((r) => setTimeout(r, 50));
    }
    streaming = false;
    await Promise.all(publishers);
    expect(lost).toBe(40);
    expect(servedWhileStreaming).toBe(true);
    await eventuallyPasses(async () => {
      const served = await wholeCoinBoard(stack.api, p.accessToken, 2024, 10);
      const amounts = new Map(served.map((e) => [e.userId, e.coins]));
      expect(served).toHaveLength(seeded.length);
      for (const user of seeded)
        expect(amounts.get(user)).toBe(sumCoins(['1', String(extra.get(user) ?? 0)]));
    });
  }, 90_000);
});

describe('a rebuild that died between its swap and writing the users noted during it', () => {
  it('is served from Postgres and rebuilt when the service starts again', async () => {
    const p = await registerAndLogin(stack.api);
    const redisUrl = stack.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const users = Array.from({ length: 5 }, () => randomUUID());
    await Promise.all(
      users.map((u, i) => events.credit(p.partnerId, u, `${i + 1}`, '2024-11-03T00:00:00.000Z')),
    );
    await eventuallyPasses(async () => {
      expect(await indexReady(redisUrl, p.partnerId, 'coins:2024-11')).toBe(true);
      expect(await wholeCoinBoard(stack.api, p.accessToken, 2024, 11)).toHaveLength(users.length);
    });
    await stack.stopService('leaderboard');
    await leaveRebuildUnfinished(redisUrl, p.partnerId, 'coins:2024-11', users[4]);
    await stack.startService('leaderboard');
    await boardAnswersExpired();
    await eventuallyPasses(async () => {
      const board = await wholeCoinBoard(stack.api, p.accessToken, 2024, 11);
      expect(board.map((e) => [e.userId, e.coins])).toEqual(
        users.map((u, i) => [u, `${i + 1}.00`]).reverse(),
      );
    });
  });
});

describe('a consumer killed mid-stream', () => {
  it('counts every event exactly once after a restart', async () => {
    const p = await registerAndLogin(stack.api);
    const users = Array.from({ length: 10 }, () => randomUUID());
    await stack.stopService('leaderboard');
    let child = await spawnService('leaderboard', stack.env);
    try {
      const sums = new Map<string, string[]>();
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 40 }, (_, j) => {
            const i = batch * 40 + j;
            const user = users[i % users.length];
            const coins = `${(i % 9) + 1}.${String(i % 100).padStart(2, '0')}`;
            sums.set(user, [...(sums.get(user) ?? []), coins]);
            return events.credit(p.partnerId, user, coins, '2024-08-10T12:00:00.000Z');
          }),
        );
        if (batch === 4) await child.kill();
      }
      child = await spawnService('leaderboard', stack.env);
      const expected = new Map([...sums].map(([u, cs]) => [u, sumCoins(cs)]));
      await eventuallyPasses(async () => {
        const board = await wholeCoinBoard(stack.api, p.accessToken, 2024, 8);
        expect(new Map(board.map((e) => [e.userId, e.coins]))).toEqual(expected);
      }, 30_000);
    } finally {
      await child.stop();
      await stack.startService('leaderboard');
    }
  }, 90_000);
});
