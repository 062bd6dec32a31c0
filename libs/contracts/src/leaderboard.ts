import { z } from 'zod';
import {
  DEFAULT_PAGE_SIZE,
  guid,
  isoTimestamp,
  MAX_PAGE_SIZE,
  pageQuery,
  paginationBlock,
} from './common.ts';
import { type Operation, operationsOf } from './operation.ts';

const { http } = operationsOf('leaderboard');

/** The earliest year a board can be asked for; a period before any coins exist is simply empty. */
const MIN_YEAR = 2000;
const MAX_YEAR = 9999;

const coinLeaderboardQuery = z.object({
  ...pageQuery,
  /** Calendar month (1–12, UTC) and year of the board; both default to the current UTC month. */
  month: z.coerce.number().int().min(1).max(12).optional(),
  year: z.coerce.number().int().min(MIN_YEAR).max(MAX_YEAR).optional(),
  type: z.enum(['earner']).default('earner'),
  /** The user whose position is returned in `userPosition`. */
  userId: guid.optional(),
});

const coinPosition = z.object({ userId: guid, amount: z.string(), position: z.number().int() });

const coinLeaderboardResponse = z
  .object({
    /** The `userId` of the query: its coins and 1-based rank; null without a userId or with no coins. */
    userPosition: coinPosition.nullable(),
    data: z.array(z.object({ userId: guid, coins: z.string() })),
    ...paginationBlock,
    /** The specification (docs/specification.md) shows the coin leaderboard's count as text. */
    count: z.string(),
  })
  .meta({ id: 'CoinLeaderboard', description: 'A page of the coin leaderboard of a calendar month.' });

/**
 * How old a board page may be when served: short enough that a transfer still shows within 1 s after
 * the consumer's lag, long enough that many clients reading one page cost the leaderboard a few reads
 * a second per gateway instead of one each (docs/decisions/2026-11-23-leaderboard-answer-cache.md).
 */
const BOARD_FRESH_FOR_MS = 250;

/** Coins credited to each user in a calendar month, ranked descending. */
export const coinLeaderboard = http('coinLeaderboard', 'GET /api/v1/coins/partner/ep-leaderboard', {
  permission: 'read',
  message: 'leaderboard returned',
  freshForMs: BOARD_FRESH_FOR_MS,
  summary: 'Coins earned by each user in a calendar month, highest first',
  schemas: { query: coinLeaderboardQuery, response: coinLeaderboardResponse },
});

const pointsLeaderboardQuery = z.object({
  page: pageQuery.page,
  take: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  /** Must be the caller's own partner id when given. */
  partnerId: guid.optional(),
  userId: guid.optional(),
});

/** The stored user of docs/specification.md ("Leaderboard entries"), as shown in leaderboard output. */
export const leaderboardUserSchema = z.object({
  id: guid,
  userId: guid,
  userData: z.record(z.string(), z.unknown()).nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

const pointsEntrySchema = z.object({
  id: guid,
  points: z.number(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  /** Null only while the user's details cannot be had from onboarding (docs/partners/leaderboards.md). */
  user: leaderboardUserSchema.nullable(),
});

const pointsLeaderboardResponse = z
  .object({
    userPosition: z.object({ userId: guid, amount: z.number(), position: z.number().int() }).nullable(),
    data: z.array(pointsEntrySchema),
    ...paginationBlock,
  })
  .meta({ id: 'PointsLeaderboard', description: 'A page of the all-time points leaderboard.' });

/** All-time points per user of the calling partner, ranked descending. */
export const pointsLeaderboard = http('pointsLeaderboard', 'GET /api/v1/laas/leaderboard/new', {
  permission: 'read',
  message: 'leaderboard returned',
  freshForMs: BOARD_FRESH_FOR_MS,
  summary: 'All-time points of each user, highest first',
  schemas: { query: pointsLeaderboardQuery, response: pointsLeaderboardResponse },
});

/**
 * A liveness probe for partners: answered by the leaderboard service itself, through the same
 * gateway and bus path as the boards, without touching Redis or Postgres.
 */
export const ping = http('ping', 'GET /api/v1/laas/leaderboard/ping', {
  permission: 'read',
  message: 'pong',
  summary: 'Liveness probe of the leaderboard service',
  schemas: { response: z.object({ service: z.literal('leaderboard'), time: isoTimestamp }) },
});

/** The leaderboard service's operations (HTTP routes and internal NATS subjects). */
export const leaderboardOperations: readonly Operation[] = [coinLeaderboard, pointsLeaderboard, ping];
