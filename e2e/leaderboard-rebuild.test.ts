import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { eventuallyPasses, spawnService } from '@coin/testing';
import { describe, expect, it } from 'vitest';
import {
  boardAnswersExpired,
  forgetPartnerIndex,
  indexReady,
  leaveRebuildUnfinished,
  sumCoins,
  wholeCoinBoard,
} from './support/leaderboard.ts';
import { events, stack, useLeaderboardStack } from './support/leaderboard-suite.ts';
import { registerAndLogin } from './support/partners.ts';

useLeaderboardStack();

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
