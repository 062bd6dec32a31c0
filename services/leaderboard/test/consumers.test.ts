import { randomUUID } from 'node:crypto';
import { EVENT_SUBJECTS, leaderboard } from '@coin/contracts';
import { listParked, type ParkedEvent } from '@coin/events';
import {
  databaseOutage,
  eventually,
  type ServiceAlone,
  seededRandom,
  startServiceAlone,
} from '@coin/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardKeys } from '../src/domain/board-scripts.ts';
import { coinBoardAt } from '../src/domain/boards.ts';
import { startLeaderboard } from '../src/index.ts';

/**
 * The leaderboard's three consumers, fed straight from the events stream (what wallet, rules and
 * onboarding publish), observed through the service's own bus operations.
 */

let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('leaderboard', startLeaderboard);
});

afterAll(async () => {
  await svc?.stop();
});

const publish = (subject: string, payload: Record<string, unknown>) => svc.publish(subject, payload);

function credit(partnerId: string, userId: string, coins: string, eventId = randomUUID()) {
  return {
    eventId,
    partnerId,
    ledgerEntryId: randomUUID(),
    userId,
    transactionType: 'partner_user_transfer',
    debitOrCredit: 'CR',
    coins,
    createdAt: new Date().toISOString(),
  };
}

function rewarded(partnerId: string, userId: string, points: number) {
  return {
    eventId: randomUUID(),
    partnerId,
    ruleId: randomUUID(),
    ruleName: 'signup',
    userId,
    coins: points.toFixed(2),
    points,
    ledgerEntryId: randomUUID(),
    rewardedAt: new Date().toISOString(),
  };
}

async function coinBoard(partnerId: string) {
  const page = await svc.call(leaderboard.coinLeaderboard, { partnerId, query: { limit: 100 } as never });
  return Object.fromEntries(page.data.map((e) => [e.userId, e.coins]));
}

async function parked(durable: string): Promise<ParkedEvent[]> {
  const out: ParkedEvent[] = [];
  for await (const p of listParked(svc.nc, durable)) out.push(p);
  return out;
}

describe('leaderboard consumers', () => {
  it('park a malformed transfer under their durable and count the valid ones', async () => {
    const partnerId = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    await publish(EVENT_SUBJECTS.transferCompleted, credit(partnerId, a, '5.00'));
    await publish(EVENT_SUBJECTS.transferCompleted, { ...credit(partnerId, b, '1.00'), coins: 1 });
    await publish(EVENT_SUBJECTS.transferCompleted, credit(partnerId, a, '2.50'));
    const board = await eventually(async () => {
      const b = await coinBoard(partnerId);
      return b[a] === '7.50' ? b : undefined;
    });
    expect(board).toEqual({ [a]: '7.50' });
    const [one] = await eventually(async () => {
      const p = (await parked('leaderboard-transfers')).filter((e) => e.payload.includes(partnerId));
      return p.length === 1 ? p : undefined;
    });
    expect(one.reason).toMatch(/^malformed: coins: /);
  });

  it('count every transfer published while their database refuses connections, once, after it is back', async () => {
    const partnerId = randomUUID();
    const users = Array.from({ length: 5 }, () => randomUUID());
    await publish(EVENT_SUBJECTS.transferCompleted, credit(partnerId, users[0], '1.00'));
    await eventually(async () => ((await coinBoard(partnerId))[users[0]] === '1.00' ? true : undefined));

    const outage = await databaseOutage(svc.env.LEADERBOARD_DATABASE_URL!);
    try {
      for (let i = 0; i < 20; i++) {
        const event = credit(partnerId, users[i % users.length], '1.00');
        await publish(EVENT_SUBJECTS.transferCompleted, event);
        // Published twice under different message ids (an outbox relay that crashed after the
        // ack): counted once.
        if (i % 7 === 0) await publish(EVENT_SUBJECTS.transferCompleted, event);
      }
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      await outage.end();
    }
    const expected = Object.fromEntries(users.map((u, i) => [u, i === 0 ? '5.00' : '4.00']));
    const board = await eventually(async () => {
      const b = await coinBoard(partnerId);
      return JSON.stringify(b) === JSON.stringify({ ...b, ...expected }) ? b : undefined;
    }, 60_000);
    expect(board).toEqual(expected);
    expect((await parked('leaderboard-transfers')).filter((e) => e.payload.includes(partnerId))).toEqual([]);
  }, 90_000);

  it('count a burst of credits, taken in batches, each once, copies published under other message ids too', async () => {
    const random = seededRandom('leaderboard credit burst');
    const partnerId = randomUUID();
    const users = Array.from({ length: 6 }, () => randomUUID());
    const expected = new Map<string, number>();
    const events = Array.from({ length: 400 }, () => {
      const userId = random.pick(users);
      const cents = 1 + random.below(5000);
      expected.set(userId, (expected.get(userId) ?? 0) + cents);
      return credit(partnerId, userId, (cents / 100).toFixed(2));
    });
    const copies = events.filter(() => random.below(5) === 0);
    await Promise.all([...events, ...copies].map((e) => publish(EVENT_SUBJECTS.transferCompleted, e)));
    const want = Object.fromEntries([...expected].map(([u, c]) => [u, (c / 100).toFixed(2)]));
    const board = await eventually(async () => {
      const b = await coinBoard(partnerId);
      return Object.keys(b).length === expected.size && Object.entries(want).every(([u, c]) => b[u] === c)
        ? b
        : undefined;
    }, 30_000);
    expect(board).toEqual(want);
  });

  it("write a batch's standings of one board to the Redis index in one script call", async () => {
    const partnerId = randomUUID();
    const first = credit(partnerId, randomUUID(), '1.00');
    await publish(EVENT_SUBJECTS.transferCompleted, first);
    const ready = boardKeys({ partnerId, board: coinBoardAt(first.createdAt) }).ready;
    const redis = new Redis(svc.env.REDIS_URL!);
    try {
      await eventually(async () => ((await redis.exists(ready)) === 1 ? true : undefined));
      const monitor = await redis.monitor();
      let calls = 0;
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0].toLowerCase() === 'evalsha' && args.some((a) => a.includes(`{${partnerId}}`))) calls += 1;
      });
      const users = Array.from({ length: 60 }, () => randomUUID());
      await Promise.all(
        users.map((u) => publish(EVENT_SUBJECTS.transferCompleted, credit(partnerId, u, '2.00'))),
      );
      await eventually(async () =>
        Object.keys(await coinBoard(partnerId)).length === 61 ? true : undefined,
      );
      monitor.disconnect();
      // A call per standing made 60; the consumer takes the burst in a few batches.
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThan(30);
    } finally {
      redis.disconnect();
    }
  });

  it('store the users of many onboarding events in batches, and serve a points page larger than 1 MB', async () => {
    const partnerId = randomUUID();
    const at = new Date().toISOString();
    const users = Array.from({ length: 80 }, (_, i) => ({
      id: randomUUID(),
      userId: randomUUID(),
      userData: { n: i, note: 'x'.repeat(15_000) },
      tierId: null,
      createdAt: at,
      updatedAt: at,
    }));
    for (let i = 0; i < users.length; i += 8) {
      await publish(EVENT_SUBJECTS.usersOnboarded, {
        eventId: randomUUID(),
        partnerId,
        requestId: randomUUID(),
        users: users.slice(i, i + 8),
      });
    }
    for (const [i, u] of users.entries())
      await publish(EVENT_SUBJECTS.ruleRewarded, rewarded(partnerId, u.userId, 100 + i));
    const page = await eventually(async () => {
      const p = await svc.call(leaderboard.pointsLeaderboard, { partnerId, query: { take: 100 } as never });
      return p.data.length === users.length && p.data.every((e) => e.user) ? p : undefined;
    });
    expect(JSON.stringify(page).length).toBeGreaterThan(1024 * 1024);
    expect(page.data[0]).toMatchObject({
      points: 179,
      user: { userId: users[79].userId, userData: users[79].userData },
    });
    expect(page.data.map((e) => e.user?.userId)).toEqual(users.map((u) => u.userId).reverse());
  });
});
