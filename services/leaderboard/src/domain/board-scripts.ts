import type { Redis } from 'ioredis';
import type { BoardRef } from './boards.ts';

/**
 * Keys of one board. The partner id in braces is a Redis Cluster hash tag, so every key of a
 * partner lives in one slot and the scripts below may touch them together.
 */
export function boardKeys(ref: BoardRef) {
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
    /** Users whose standing changed while a rebuild held the lock; read again from Postgres after its swap. */
    pending: `${base}:pending`,
    /** `pending` as the swap found it: the users the rebuilder reads again, apart from those noted later. */
    swappedPending: `${base}:pending-swapped`,
    lock: `${base}:lock`,
    staging: (token: string) => ({ ranking: `${base}:tmp:${token}:z`, members: `${base}:tmp:${token}:m` }),
  };
}

/**
 * Writes the standings of users of one board (ARGV: userId, member, cents for each) when the board is
 * ready (1), each unless what is there is newer; a standing at 0 or below leaves the board. While a
 * rebuild holds the lock, the users are also noted in `pending`, whose standings the rebuilder reads
 * again from Postgres after its swap: a write can never be lost to an older snapshot. Not ready: 2
 * if a rebuild is under way (it will read the users again), 0 if the board needs one. One call per
 * board and batch of events: a call per standing was a large share of the consumer's allocations
 * (docs/decisions/2026-11-24-leaderboard-one-script-call-per-board.md).
 */
const UPDATE_SCRIPT = `
local building = redis.call('EXISTS', KEYS[4]) == 1
if building then
  for i = 1, #ARGV, 3 do redis.call('SADD', KEYS[5], ARGV[i]) end
end
if redis.call('EXISTS', KEYS[3]) == 0 then
  if building then return 2 end
  return 0
end
for i = 1, #ARGV, 3 do
  local user, member, cents = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local old = redis.call('HGET', KEYS[2], user)
  if cents <= 0 then
    if old then redis.call('ZREM', KEYS[1], old) end
    redis.call('HDEL', KEYS[2], user)
  else
    local score = old and redis.call('ZSCORE', KEYS[1], old)
    if not (score and tonumber(score) >= cents) then
      if old then redis.call('ZREM', KEYS[1], old) end
      redis.call('ZADD', KEYS[1], ARGV[i + 2], member)
      redis.call('HSET', KEYS[2], user, member)
    end
  end
end
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
 * Replaces the board with the staged copy and marks it ready, in one step, and hands the users noted
 * during the rebuild to the rebuilder (`pending` becomes `pending-swapped`). It used to be refused
 * while any user was noted, until the rebuilder had read them all again; under a steady stream of
 * credits some always were, and the board stayed unready for as long as the stream lasted.
 */
const SWAP_SCRIPT = `
redis.call('DEL', KEYS[1], KEYS[2], KEYS[7])
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('RENAME', KEYS[4], KEYS[1]) end
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[2]) end
if redis.call('EXISTS', KEYS[6]) == 1 then redis.call('RENAME', KEYS[6], KEYS[7]) end
redis.call('SET', KEYS[3], ARGV[1])
return 1`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** The update script, only ever queued on a pipeline (its reply comes with the pipeline's). */
export type PipelinedScripts = {
  lbUpdateBoard(
    k1: string,
    k2: string,
    k3: string,
    k4: string,
    k5: string,
    /** userId, member, cents of each standing. */
    ...standings: string[]
  ): unknown;
};

export type BoardScripts = {
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
    k7: string,
    stamp: string,
  ): Promise<number>;
  lbRelease(k1: string, token: string): Promise<number>;
};

/** `redis` with the board scripts defined on it (ioredis sends each by its SHA, loading it once). */
export function withBoardScripts(redis: Redis): Redis & BoardScripts {
  redis.defineCommand('lbUpdateBoard', { numberOfKeys: 5, lua: UPDATE_SCRIPT });
  redis.defineCommand('lbRead', { numberOfKeys: 3, lua: READ_SCRIPT });
  redis.defineCommand('lbSwap', { numberOfKeys: 7, lua: SWAP_SCRIPT });
  redis.defineCommand('lbRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  return redis as Redis & BoardScripts;
}
