import { readSnapshot } from '@coin/db';
import type { LeaderboardDeps } from '../deps.ts';
import type { IndexedPage } from '../domain/board-index.ts';
import type { BoardRef } from '../domain/boards.ts';
import { countStandings, positionOf, standingsPage } from '../domain/standings.ts';

/**
 * A page of a board from the Redis index, or from Postgres while the index is not ready (being
 * rebuilt, or Redis unreachable): the ranks are the same either way, never from a partial index.
 */
export async function readBoard(
  deps: LeaderboardDeps,
  ref: BoardRef,
  page: { offset: number; limit: number; userId?: string },
): Promise<IndexedPage> {
  try {
    const indexed = await deps.index.read(ref, page.offset, page.limit, page.userId);
    if (indexed) return indexed;
  } catch (err) {
    deps.log.warn({ err }, 'leaderboard index unreachable; reading Postgres');
  }
  // Only here: a page served from the index needs no entity manager (forking one per read showed in
  // the leaderboard's CPU profile; docs/decisions/2026-11-23-hot-path-costs-removed.md). One
  // snapshot, as the index's read is one script: the count, the page and the position agree.
  const { count, rows, user } = await readSnapshot(deps.db.em.fork(), async (tx) => ({
    count: await countStandings(tx, ref),
    rows: await standingsPage(tx, ref, page.offset, page.limit),
    user: page.userId ? await positionOf(tx, ref, page.userId) : null,
  }));
  if (count > 0) void deps.index.requestRebuild(ref);
  return { count, entries: rows.map((r) => ({ userId: r.userId, amount: r.amount })), user };
}
