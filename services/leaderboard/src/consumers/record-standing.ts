import type { EntityManager } from '@coin/db';
import { applyOnce, type RunningConsumer, startConsumer } from '@coin/events';
import type { z } from 'zod';
import type { BoardRef } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { addToStanding, findStanding } from '../standings.ts';

/** What every leaderboard consumer shares: the connection, the log and the configured pace. */
export function consumerSettings(deps: LeaderboardDeps) {
  return {
    nc: deps.nc,
    log: deps.log,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
  };
}

type StandingChange = { userId: string; amount: string; at: string };

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
  change: StandingChange,
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

/**
 * A consumer that records each event's standing change (`standingOf`; none for an event that counts
 * toward no board) with `recordStanding`.
 */
export function consumeStandings<S extends z.ZodType<{ eventId: string }>>(
  deps: LeaderboardDeps,
  opts: {
    durable: string;
    subject: string;
    schema: S;
    standingOf: (event: z.output<S>) => { ref: BoardRef; change: StandingChange } | undefined;
  },
): Promise<RunningConsumer> {
  return startConsumer({
    ...consumerSettings(deps),
    durable: opts.durable,
    subject: opts.subject,
    schema: opts.schema,
    handle: async (event) => {
      const standing = opts.standingOf(event);
      if (standing) await recordStanding(deps, opts.durable, event.eventId, standing.ref, standing.change);
    },
  });
}
