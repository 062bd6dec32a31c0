import type { EntityManager } from '@coin/db';
import { applyOnce } from '@coin/events';
import type { BoardRef } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { addToStanding, findStanding } from '../standings.ts';

/**
 * Adds an event's amount (negative for a reversal) to a user's standing exactly once (the event id is recorded in the same
 * transaction), then writes the committed standing to the Redis index. A redelivered event, e.g.
 * after a crash between the commit and the index write, changes nothing in Postgres but still
 * writes the index, so the index never misses a committed standing.
 */
export async function recordStanding(
  deps: LeaderboardDeps,
  consumer: string,
  eventId: string,
  ref: BoardRef,
  change: { userId: string; amount: string; at: string },
): Promise<void> {
  const em: EntityManager = deps.orm.em.fork();
  let standing = null;
  const applied = await applyOnce(em, consumer, eventId, async (tx) => {
    standing = await addToStanding(tx, ref, change);
  });
  if (!applied) standing = await findStanding(em, ref, change.userId);
  // The index keeps the highest amount it was given (updates may arrive out of order), so a
  // decrease (a reversal) cannot be written to it: readers go to Postgres while the board is rebuilt.
  if (change.amount.startsWith('-')) await deps.index.forceRebuild(ref);
  else if (standing) await deps.index.update(ref, standing);
}
