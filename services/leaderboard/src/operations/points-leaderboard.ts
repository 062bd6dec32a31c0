import { handle } from '@coin/bus';
import { leaderboard, paginate } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { LeaderboardDeps } from '../deps.ts';
import { POINTS_BOARD } from '../domain/boards.ts';
import { pointsEntries } from '../domain/standings.ts';
import { usersOf } from '../domain/users.ts';
import { readBoard } from './read-board.ts';

export function pointsLeaderboardHandler(deps: LeaderboardDeps) {
  return handle(leaderboard.pointsLeaderboard, async ({ partnerId, query }) => {
    // Another partner's board is treated as one that does not exist: nothing about it is revealed.
    if (query.partnerId && query.partnerId !== partnerId) throw AppError.notFound('leaderboard not found');
    const ref = { partnerId, board: POINTS_BOARD };
    const { count, entries, user } = await readBoard(deps, ref, {
      offset: (query.page - 1) * query.take,
      limit: query.take,
      userId: query.userId,
    });
    const userIds = entries.map((e) => e.userId);
    const em = deps.db.em.fork();
    const [rows, users] = await Promise.all([
      pointsEntries(em, ref, userIds),
      usersOf(deps, em, ref.partnerId, userIds),
    ]);
    return {
      userPosition:
        user && query.userId
          ? { userId: query.userId, amount: Number(user.amount), position: user.position }
          : null,
      data: entries.map((e) => {
        // Every indexed standing is committed in Postgres first, and standings are never deleted.
        const row = rows.get(e.userId)!;
        return { ...row, points: Number(e.amount), user: users.get(e.userId) ?? null };
      }),
      ...paginate(count, query.page, query.take),
    };
  });
}
