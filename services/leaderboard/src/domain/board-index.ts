import { randomUUID } from 'node:crypto';
import type { Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import type { Redis } from 'ioredis';
import { type BoardScripts, boardKeys, type PipelinedScripts, withBoardScripts } from './board-scripts.ts';
import { type BoardRef, boardKey } from './boards.ts';
import { amountText, centsOf, memberOf, userIdOf } from './ranking.ts';
import { allStandings, type BoardStanding, listBoards, standingsOf } from './standings.ts';

/** Longer than any rebuild of one board; a crashed rebuilder's lock expires after it. */
const LOCK_MS = 5 * 60_000;
const WRITE_BATCH = 2000;

export interface IndexedPage {
  count: number;
  entries: { userId: string; amount: string }[];
  user: { amount: string; position: number } | null;
}

/**
 * The Redis index of the boards. Postgres holds the truth; the index is written after each commit
 * and rebuilt from Postgres whenever a board's `ready` key is missing (a new board, FLUSHALL, a
 * new Redis, or an operator's rebuild). While a board is not ready, readers get null and serve it
 * from Postgres, so a rank is never read from a partial index.
 */
export class BoardIndex {
  private readonly redis: Redis & BoardScripts;
  private readonly runs = new Map<string, { started: boolean; done: Promise<void> }>();

  private readonly db: Database;
  private readonly log: Logger;

  constructor(redis: Redis, db: Database, log: Logger) {
    this.db = db;
    this.log = log;
    this.redis = withBoardScripts(redis);
  }

  /**
   * Writes committed standings, in one pipeline; a board that is not ready is (re)built from
   * Postgres instead.
   */
  async update(standings: readonly BoardStanding[]): Promise<void> {
    for (const ref of await this.write(standings)) await this.requestRebuild(ref);
  }

  /** Writes standings where their board is ready, one script call per board; returns the boards that are not. */
  private async write(standings: readonly BoardStanding[]): Promise<BoardRef[]> {
    if (standings.length === 0) return [];
    const boards = new Map<string, { ref: BoardRef; args: string[] }>();
    for (const { ref, userId, amount, reachedMs } of standings) {
      const key = boardKey(ref);
      const board = boards.get(key) ?? { ref, args: [] };
      boards.set(key, board);
      board.args.push(userId, memberOf(userId, reachedMs), String(centsOf(amount)));
    }
    const writes = [...boards.values()];
    const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> & PipelinedScripts;
    for (const { ref, args } of writes) {
      const k = boardKeys(ref);
      pipeline.lbUpdateBoard(k.ranking, k.members, k.ready, k.lock, k.pending, ...args);
    }
    const replies = (await pipeline.exec()) ?? [];
    const missing: BoardRef[] = [];
    for (const [i, [err, done]] of replies.entries()) {
      if (err) throw err;
      if (done === 0) missing.push(writes[i].ref);
    }
    return missing;
  }

  /** A page (0-based offset) and the user's position, or null when the board must come from Postgres. */
  async read(ref: BoardRef, offset: number, limit: number, userId?: string): Promise<IndexedPage | null> {
    const k = boardKeys(ref);
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
        await this.redis.set(boardKeys(ref).dirty, '1');
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
    await this.redis.del(boardKeys(ref).ready);
    await this.requestRebuild(ref);
  }

  /**
   * Builds every board of Postgres whose index is missing (at start, after FLUSHALL or a new Redis),
   * and rebuilds at once, served from Postgres meanwhile, every board a rebuild swapped in without
   * writing all the users noted during it (`pending-swapped` left over: its process died).
   */
  async rebuildMissing(): Promise<number> {
    const boards = await listBoards(this.db.em.fork());
    let rebuilt = 0;
    for (let i = 0; i < boards.length; i += 500) {
      const chunk = boards.slice(i, i + 500);
      const pipeline = this.redis.pipeline();
      for (const ref of chunk) {
        const k = boardKeys(ref);
        pipeline.exists(k.ready);
        pipeline.exists(k.swappedPending);
      }
      const found = (await pipeline.exec()) ?? [];
      for (const [j, ref] of chunk.entries()) {
        const ready = found[2 * j]?.[1] === 1;
        const unfinished = found[2 * j + 1]?.[1] === 1;
        if (ready && !unfinished) continue;
        await (unfinished ? this.forceRebuild(ref) : this.requestRebuild(ref));
        rebuilt += 1;
      }
    }
    return rebuilt;
  }

  async forceRebuildAll(): Promise<number> {
    const boards = await listBoards(this.db.em.fork());
    for (const ref of boards) await this.forceRebuild(ref);
    return boards.length;
  }

  /** Waits for rebuilds under way in this process. */
  async idle(): Promise<void> {
    while (this.runs.size) await Promise.allSettled([...this.runs.values()].map((r) => r.done));
  }

  private async drain(ref: BoardRef): Promise<void> {
    const k = boardKeys(ref);
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
   * held the lock and noted the user in `pending`: after the swap those users are read again from
   * Postgres (after their commit) and written like any update, the newer amount winning. So every
   * committed standing is on the board within one such round after the swap.
   */
  private async build(ref: BoardRef, token: string): Promise<void> {
    const k = boardKeys(ref);
    const staging = k.staging(token);
    const began = performance.now();
    // Users noted before this snapshot are in it.
    await this.redis.del(k.pending);
    const standings = await allStandings(this.db.em.fork(), ref);
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
    await this.redis.lbSwap(
      k.ranking,
      k.members,
      k.ready,
      staging.ranking,
      staging.members,
      k.pending,
      k.swappedPending,
      new Date().toISOString(),
    );
    for (;;) {
      const noted = await this.redis.spop(k.swappedPending, WRITE_BATCH);
      if (noted.length === 0) break;
      const fresh = await standingsOf(this.db.em.fork(), ref, noted);
      // Not update(): its rebuild request would wait for this very build. A board gone meanwhile
      // (its keys deleted, lock and all) is marked for drain() to build again.
      const gone = await this.write(fresh.map((s) => ({ ...s, ref })));
      if (gone.length > 0) {
        await this.redis.set(k.dirty, '1');
        break;
      }
    }
    this.log.info(
      { board: boardKey(ref), users: standings.length, ms: Math.round(performance.now() - began) },
      'leaderboard index rebuilt',
    );
  }
}
