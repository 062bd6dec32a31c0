import { EVENT_CONSUMERS, EVENT_SUBJECTS, transferCompletedEvent } from '@coin/contracts';
import { type RunningConsumer, startConsumer } from '@coin/events';
import { coinBoardAt } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { recordStanding } from './record-standing.ts';

const DURABLE = EVENT_CONSUMERS.leaderboardTransfers.durable;

/** Coins credited to a user (CR) count toward the earner board of the transfer's UTC month. */
export function consumeTransfers(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return startConsumer({
    nc: deps.nc,
    log: deps.log,
    durable: DURABLE,
    subject: EVENT_SUBJECTS.transferCompleted,
    schema: transferCompletedEvent,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
    handle: async (event) => {
      if (event.debitOrCredit !== 'CR') return;
      await recordStanding(
        deps,
        DURABLE,
        event.eventId,
        { partnerId: event.partnerId, board: coinBoardAt(event.createdAt) },
        { userId: event.userId, amount: event.coins, at: event.createdAt },
      );
    },
  });
}
