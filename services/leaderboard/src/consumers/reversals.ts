import { EVENT_CONSUMERS, EVENT_SUBJECTS, transferReversedEvent } from '@coin/contracts';
import { keepAppliedId, type RunningConsumer, startConsumer } from '@coin/events';
import type { LeaderboardDeps } from '../deps.ts';
import { coinBoardAt, POINTS_BOARD } from '../domain/boards.ts';
import { consumerSettings, type EventChange, recordStandings } from './record-standing.ts';

const DURABLE = EVENT_CONSUMERS.leaderboardReversals.durable;
/** The points half of a reversal is applied once under its own name (one event, two boards). */
const POINTS_CONSUMER = 'leaderboard-reversals-points';

/**
 * Lowers a standing once. The index keeps the highest amount it is given (updates may arrive out of
 * order), so a decrease cannot be written to it: readers go to Postgres while the board is rebuilt.
 */
async function lower(deps: LeaderboardDeps, consumer: string, change: EventChange): Promise<void> {
  await recordStandings(deps, consumer, [change]);
  await deps.index.forceRebuild(change.ref);
}

/**
 * A reversed credit leaves the coin board of the month it was earned in and, when it paid a rule
 * reward, the points board (points equal the reward's coins). A reversed debit changes no board:
 * boards count what users earned, not what they hold.
 */
export function consumeReversals(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return startConsumer({
    ...consumerSettings(deps),
    durable: DURABLE,
    subject: EVENT_SUBJECTS.transferReversed,
    schema: transferReversedEvent,
    beforePark: keepAppliedId(deps.db, [DURABLE, POINTS_CONSUMER]),
    handle: async (event) => {
      if (event.debitOrCredit !== 'DE') return;
      const change = {
        eventId: event.eventId,
        userId: event.userId,
        amount: `-${event.coins}`,
        at: event.createdAt,
      };
      const coinBoard = { partnerId: event.partnerId, board: coinBoardAt(event.reversedCreatedAt) };
      await lower(deps, DURABLE, { ...change, ref: coinBoard });
      if (event.reversedRuleReward)
        await lower(deps, POINTS_CONSUMER, {
          ...change,
          ref: { partnerId: event.partnerId, board: POINTS_BOARD },
        });
    },
  });
}
