import { EVENT_CONSUMERS, EVENT_SUBJECTS, transferReversedEvent } from '@coin/contracts';
import { type RunningConsumer, startConsumer } from '@coin/events';
import { coinBoardAt, POINTS_BOARD } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { recordStanding } from './record-standing.ts';

const DURABLE = EVENT_CONSUMERS.leaderboardReversals.durable;
/** The points half of a reversal is applied once under its own name (one event, two boards). */
const POINTS_CONSUMER = 'leaderboard-reversals-points';

/**
 * A reversed credit leaves the coin board of the month it was earned in and, when it paid a rule
 * reward, the points board (points equal the reward's coins). A reversed debit changes no board:
 * boards count what users earned, not what they hold.
 */
export function consumeReversals(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return startConsumer({
    nc: deps.nc,
    log: deps.log,
    durable: DURABLE,
    subject: EVENT_SUBJECTS.transferReversed,
    schema: transferReversedEvent,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
    handle: async (event) => {
      if (event.debitOrCredit !== 'DE') return;
      const change = { userId: event.userId, amount: `-${event.coins}`, at: event.createdAt };
      await recordStanding(
        deps,
        DURABLE,
        event.eventId,
        { partnerId: event.partnerId, board: coinBoardAt(event.reversedCreatedAt) },
        change,
      );
      if (event.reversedRuleReward)
        await recordStanding(
          deps,
          POINTS_CONSUMER,
          event.eventId,
          { partnerId: event.partnerId, board: POINTS_BOARD },
          change,
        );
    },
  });
}
