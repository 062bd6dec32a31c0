import { applyOnceEach, keepAppliedId, type RunningConsumer, startConsumer } from '@coin/events';
import type { z } from 'zod';
import type { LeaderboardDeps } from '../deps.ts';
import {
  addToStandings,
  type BoardStanding,
  findStanding,
  type StandingChange,
} from '../domain/standings.ts';

/** What every leaderboard consumer shares: the connection, the log and the configured pace. */
export function consumerSettings(deps: LeaderboardDeps) {
  return {
    nc: deps.nc,
    log: deps.log,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
  };
}

/** A standing change and the event it comes from. */
export type EventChange = StandingChange & { eventId: string };

/**
 * Adds the changes of events (negative for a reversal) to their users' standings, each event
 * exactly once: the events' ids are recorded in the same transaction as the amounts, one
 * transaction for all of them. Returns the committed standing of every user and board the events
 * touch, those of events applied before included: an event redelivered after a crash between the
 * commit and the index write still rewrites the index, so the index never misses a committed standing.
 */
export async function recordStandings(
  deps: LeaderboardDeps,
  consumer: string,
  changes: readonly EventChange[],
): Promise<BoardStanding[]> {
  const em = deps.db.em.fork();
  let standings: BoardStanding[] = [];
  await applyOnceEach(em, consumer, changes, async (tx, fresh) => {
    standings = await addToStandings(tx, fresh);
  });
  const written = new Set(standings.map((s) => `${s.ref.partnerId}/${s.ref.board}/${s.userId}`));
  for (const { ref, userId } of changes) {
    const key = `${ref.partnerId}/${ref.board}/${userId}`;
    if (written.has(key)) continue;
    written.add(key);
    const standing = await findStanding(em, ref, userId);
    if (standing) standings.push({ ...standing, ref });
  }
  return standings;
}

/**
 * A consumer that takes events in batches and records each one's standing change (`changeOf`;
 * none for an event that counts toward no board) with `recordStandings`, then writes the committed
 * standings to the Redis index in one pipeline. The index keeps the highest amount it is given, so
 * batches committed out of order leave it right.
 */
export function consumeStandings<S extends z.ZodType<{ eventId: string }>>(
  deps: LeaderboardDeps,
  opts: {
    durable: string;
    subject: string;
    schema: S;
    changeOf: (event: z.output<S>) => StandingChange | undefined;
  },
): Promise<RunningConsumer> {
  return startConsumer({
    ...consumerSettings(deps),
    durable: opts.durable,
    subject: opts.subject,
    schema: opts.schema,
    beforePark: keepAppliedId(deps.db, [opts.durable]),
    batch: { size: deps.config.LEADERBOARD_BATCH, lingerMs: deps.config.LEADERBOARD_LINGER_MS },
    handleBatch: async (events) => {
      const changes: EventChange[] = [];
      for (const event of events) {
        const change = opts.changeOf(event);
        if (change) changes.push({ ...change, eventId: event.eventId });
      }
      if (changes.length === 0) return;
      await deps.index.update(await recordStandings(deps, opts.durable, changes));
    },
  });
}
