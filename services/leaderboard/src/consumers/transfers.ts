import { EVENT_SUBJECTS, transferCompletedEvent } from '@coin/contracts';
import type { ConsumerOptions } from '@coin/events';
import { coinBoardAt } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { dropMalformed, RETRY_DELIVERIES } from './malformed.ts';
import { recordStanding } from './record-standing.ts';

const DURABLE = 'leaderboard-transfers';

/** Coins credited to a user (CR) count toward the earner board of the transfer's UTC month. */
export function transfersConsumer(deps: LeaderboardDeps): Omit<ConsumerOptions<unknown>, 'nc' | 'log'> {
  return {
    durable: DURABLE,
    subject: EVENT_SUBJECTS.transferCompleted,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    maxDeliver: RETRY_DELIVERIES,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
    handle: async (raw, msg) => {
      const parsed = transferCompletedEvent.safeParse(raw);
      if (!parsed.success) return dropMalformed(deps.log, msg, parsed.error);
      const event = parsed.data;
      if (event.debitOrCredit !== 'CR') return;
      await recordStanding(
        deps,
        DURABLE,
        event.eventId,
        { partnerId: event.partnerId, board: coinBoardAt(event.createdAt) },
        { userId: event.userId, amount: event.coins, at: event.createdAt },
      );
    },
  };
}
