import { handle } from '@coin/bus';
import { leaderboard, paginate } from '@coin/contracts';
import type { LeaderboardDeps } from '../deps.ts';
import { coinBoard } from '../domain/boards.ts';
import { readBoard } from './read-board.ts';

export function coinLeaderboardHandler(deps: LeaderboardDeps) {
  return handle(leaderboard.coinLeaderboard, async ({ partnerId, query }) => {
    const now = new Date();
    const board = coinBoard(query.year ?? now.getUTCFullYear(), query.month ?? now.getUTCMonth() + 1);
    const { count, entries, user } = await readBoard(
      deps,
      { partnerId, board },
      { offset: (query.page - 1) * query.limit, limit: query.limit, userId: query.userId },
    );
    return {
      userPosition: user && query.userId ? { userId: query.userId, ...user } : null,
      data: entries.map((e) => ({ userId: e.userId, coins: e.amount })),
      ...paginate(count, query.page, query.limit),
      count: String(count),
    };
  });
}
