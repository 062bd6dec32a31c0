import { randomUUID } from 'node:crypto';
import type { Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import type { Redis } from 'ioredis';
import { type BoardRef, boardKey } from './boards.ts';
import { amountText, centsOf, memberOf, userIdOf } from './ranking.ts';
import { allStandings, type BoardStanding, findStanding, listBoards } from './standings.ts';

/**
 * Keys of one board. The partner id in braces is a Redis Cluster hash tag, so every key of a
 * partner lives in one slot and the scripts below may touch them together.
 */
function keys(ref: BoardRef) {
  const base = `lb:v1:{${ref.partnerId}}:${ref.board}`;
  return {
    /** Sorted set: member = reach time + userId (ranking.ts), score = cents. */
    ranking: `${base}:z`,
    /** Hash userId → current member, to find or replace a user's entry. */
    members: `${base}:m`,
    /** Present only while ranking and members hold the whole board; absent → serve from Postgres. */
    ready: `${base}:ready`,
    /** Set by whoever finds the board missing; the rebuilder builds until it stays clear. */
    dirty: `${base}:dirty`,
    /** Users whose standing changed while a rebuild held the lock; its swap waits until they are staged. */
    pending: `${base}:pending`,
    lock: `${base}:lock`,
    staging: (token: string) => ({ ranking: `${base}:tmp:${token}:z`, members: `${base}:tmp:${token}:m` }),
  };
}

/**
 * Writes a standing when the board is ready (1), unless what is there is newer; a standing at 0 or
 * below leaves the board. While a rebuild holds
 * the lock, the user is also noted in `pending`, whose swap stages that user again from Postgres
 * first: the write can never be replaced by an older snapshot. Not ready: 2 if a rebuild is under way
 * (it will stage the user), 0 if the board needs one.
 */
const UPDATE_SCRIPT = `
local building = redis.call('EXISTS', KEYS[4]) == 1
if building then redis.call('SADD', KEYS[5], ARGV[1]) end
if redis.call('EXISTS', KEYS[3]) == 0 then
  if building then return 2 end
  return 0
end
local old = redis.call('HGET', KEYS[2], ARGV[1])
if tonumber(ARGV[3]) <= 0 then
  if old then redis.call('ZREM', KEYS[1], old) end
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
if old then
  local score = redis.call('ZSCORE', KEYS[1], old)
  if score and tonumber(score) >= tonumber(ARGV[3]) then return 1 end
  redis.call('ZREM', KEYS[1], old)
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/**
 * Puts a standing read from Postgres into a staged copy, replacing the user's older entry; a
 * standing at 0 or below (its credits reversed) leaves the board.
 */
const STAGE_SCRIPT = `
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then redis.call('ZREM', KEYS[1], old) end
if tonumber(ARGV[3]) <= 0 then
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/** One page and one user's rank, atomically; nil when the board is not ready. */
const READ_SCRIPT = `
if redis.call('EXISTS', KEYS[3]) == 0 then return nil end
local count = redis.call('ZCARD', KEYS[1])
local page = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
local rank, score = -1, ''
if ARGV[3] ~= '' then
  local member = redis.call('HGET', KEYS[2], ARGV[3])
  if member then
    rank = redis.call('ZREVRANK', KEYS[1], member)
    score = redis.call('ZSCORE', KEYS[1], member)
  end
end
return {count, page, rank, score}`;

/**
 * Replaces the board with the staged copy and marks it ready, in one step; refused (0) while users
 * changed during the rebuild are still to be staged.
 */
const SWAP_SCRIPT = `
if redis.call('SCARD', KEYS[6]) > 0 then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('RENAME', KEYS[4], KEYS[1]) end
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[2]) end
redis.call('SET', KEYS[3], ARGV[1])
return 1`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Longer than any rebuild of one board; a crashed rebuilder's lock expires after it. */
const LOCK_MS = 5 * 60_000;
const WRITE_BATCH = 2000;

export interface IndexedPage {
  count: number;
  entries: { userId: string; amount: string }[];
  user: { amount: string; position: number } | null;
}

/** The update script, only ever queued on a pipeline (its reply comes with the pipeline's). */
type PipelinedScripts = {
  lbUpdate(
    k1: string,
    k2: string,
    k3: string,
    k4: string,
    k5: string,
    userId: string,
    member: string,
    cents: string,
  ): unknown;
};

type Scripts = {
  lbStage(k1: string, k2: string, userId: string, member: string, cents: string): Promise<number>;
  lbRead(
    k1: string,
    k2: string,
    k3: string,
    start: string,
    stop: string,
    userId: string,
  ): Promise<[number, string[], number, string] | null>;
  lbSwap(
    k1: string,
    k2: string,
    k3: string,
    k4: string,
    k5: string,
    k6: string,
    stamp: string,
  ): Promise<number>;
  lbRelease(k1: string, token: string): Promise<number>;
};

/**
 * The Redis index of the boards. Postgres holds the truth; the index is written after each commit
 * and rebuilt from Postgres whenever a board's `ready` key is missing (a new board, FLUSHALL, a
 * new Redis, or an operator's rebuild). While a board is not ready, readers get null and serve it
 * from Postgres, so a rank is never read from a partial index.
 */
export class BoardIndex {
  private readonly redis: Redis & Scripts;
  private readonly runs = new Map<string, { started: boolean; done: Promise<void> }>();

  private readonly orm: Database;
  private readonly log: Logger;

  constructor(redis: Redis, orm: Database, log: Logger) {
    this.orm = orm;
    this.log = log;
    redis.defineCommand('lbUpdate', { numberOfKeys: 5, lua: UPDATE_SCRIPT });
    redis.defineCommand('lbRead', { numberOfKeys: 3, lua: READ_SCRIPT });
    redis.defineCommand('lbStage', { numberOfKeys: 2, lua: STAGE_SCRIPT });
    redis.defineCommand('lbSwap', { numberOfKeys: 6, lua: SWAP_SCRIPT });
    redis.defineCommand('lbRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.redis = redis as Redis & Scripts;
  }

  /**
   * Writes committed standings, in one pipeline; a board that is not ready is (re)built from
   * Postgres instead.
   */
  async update(standings: readonly BoardStanding[]): Promise<void> {
    if (standings.length === 0) return;
    const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> & PipelinedScripts;
    for (const { ref, userId, amount, reachedMs } of standings) {
      const k = keys(ref);
      pipeline.lbUpdate(
        k.ranking,
        k.members,
        k.ready,
        k.lock,
        k.pending,
        userId,
        memberOf(userId, reachedMs),
        String(centsOf(amount)),
      );
    }
    const replies = (await pipeline.exec()) ?? [];
    const missing = new Map<string, BoardRef>();
    for (const [i, [err, done]] of replies.entries()) {
      if (err) throw err;
      if (done === 0) missing.set(boardKey(standings[i].ref), standings[i].ref);
    }
    for (const ref of missing.values()) await this.requestRebuild(ref);
  }

  /** A page (0-based offset) and the user's position, or null when the board must come from Postgres. */
  async read(ref: BoardRef, offset: number, limit: number, userId?: string): Promise<IndexedPage | null> {
    const k = keys(ref);
    const reply = await this.redis.lbRead(
      k.ranking,
      k.members,
      k.ready,
      String(offset),
      String(offset + limit - 1),
      userId ?? '',
    );
    if (reply === null) return null;
    const [count, flat, rank, score] = reply;
    const entries: IndexedPage['entries'] = [];
    for (let i = 0; i < flat.length; i += 2)
      entries.push({ userId: userIdOf(flat[i]), amount: amountText(flat[i + 1]) });
    const user = Number(rank) >= 0 ? { amount: amountText(score), position: Number(rank) + 1 } : null;
    return { count: Number(count), entries, user };
  }

  /**
   * Builds the board from Postgres after this call, unless another process is building it (that
   * one sees the `dirty` mark and builds again). Calls that arrive while a build runs here share one
   * follow-up build. Never throws: a failure leaves the board served from Postgres.
   */
  requestRebuild(ref: BoardRef): Promise<void> {
    const key = boardKey(ref);
    const current = this.runs.get(key);
    if (current && !current.started) return current.done;
    const run = { started: false, done: Promise.resolve() };
    run.done = (current?.done ?? Promise.resolve()).then(async () => {
      run.started = true;
      try {
        await this.redis.set(keys(ref).dirty, '1');
        await this.drain(ref);
      } catch (err) {
        this.log.warn({ err, board: key }, 'leaderboard index rebuild failed; served from Postgres');
      } finally {
        if (this.runs.get(key) === run) this.runs.delete(key);
      }
    });
    this.runs.set(key, run);
    return run.done;
  }

  /** Operator's rebuild: readers move to Postgres at once, then the board is built afresh. */
  async forceRebuild(ref: BoardRef): Promise<void> {
    await this.redis.del(keys(ref).ready);
    await this.requestRebuild(ref);
  }

  /** Builds every board of Postgres whose index is missing (at start, after FLUSHALL or a new Redis). */
  async rebuildMissing(): Promise<number> {
    const boards = await listBoards(this.orm.em.fork());
    let rebuilt = 0;
    for (let i = 0; i < boards.length; i += 500) {
      const chunk = boards.slice(i, i + 500);
      const pipeline = this.redis.pipeline();
      for (const ref of chunk) pipeline.exists(keys(ref).ready);
      const found = (await pipeline.exec()) ?? [];
      for (const [j, ref] of chunk.entries()) {
        if (found[j]?.[1] === 1) continue;
        await this.requestRebuild(ref);
        rebuilt += 1;
      }
    }
    return rebuilt;
  }

  async forceRebuildAll(): Promise<number> {
    const boards = await listBoards(this.orm.em.fork());
    for (const ref of boards) await this.forceRebuild(ref);
    return boards.length;
  }

  /** Waits for rebuilds under way in this process. */
  async idle(): Promise<void> {
    while (this.runs.size) await Promise.allSettled([...this.runs.values()].map((r) => r.done));
  }

  private async drain(ref: BoardRef): Promise<void> {
    const k = keys(ref);
    const token = randomUUID();
    for (;;) {
      const locked = await this.redis.set(k.lock, token, 'PX', LOCK_MS, 'NX');
      if (locked !== 'OK') return;
      try {
        while ((await this.redis.del(k.dirty)) === 1) await this.build(ref, token);
      } finally {
        await this.redis.lbRelease(k.lock, token);
      }
      // A mark set between our last check and the release would otherwise wait for the next trigger.
      if ((await this.redis.exists(k.dirty)) === 0) return;
    }
  }

  /**
   * Stages the board from one Postgres snapshot and swaps it in. A standing committed after the
   * snapshot is either written after the swap by its own update, or its update ran while this build
   * held the lock and noted the user in `pending`: the swap is refused until those users are staged
   * again from Postgres (after their commit), so the swapped-in board has every committed standing.
   */
  private async build(ref: BoardRef, token: string): Promise<void> {
    const k = keys(ref);
    const staging = k.staging(token);
    const began = performance.now();
    // Users noted before this snapshot are in it.
    await this.redis.del(k.pending);
    const standings = await allStandings(this.orm.em.fork(), ref);
    await this.redis.del(staging.ranking, staging.members);
    for (let i = 0; i < standings.length; i += WRITE_BATCH) {
      const pipeline = this.redis.pipeline();
      for (const s of standings.slice(i, i + WRITE_BATCH)) {
        const member = memberOf(s.userId, s.reachedMs);
        pipeline.zadd(staging.ranking, centsOf(s.amount), member);
        pipeline.hset(staging.members, s.userId, member);
      }
      await pipeline.exec();
    }
    for (;;) {
      const swapped = await this.redis.lbSwap(
        k.ranking,
        k.members,
        k.ready,
        staging.ranking,
        staging.members,
        k.pending,
        new Date().toISOString(),
      );
      if (swapped === 1) break;
      const changed = await this.redis.spop(k.pending, WRITE_BATCH);
      const em = this.orm.em.fork();
      for (const userId of changed) {
        const s = await findStanding(em, ref, userId);
        if (s)
          await this.redis.lbStage(
            staging.ranking,
            staging.members,
            s.userId,
            memberOf(s.userId, s.reachedMs),
            String(centsOf(s.amount)),
          );
      }
    }
    this.log.info(
      { board: boardKey(ref), users: standings.length, ms: Math.round(performance.now() - began) },
      'leaderboard index rebuilt',
    );
  }
}
