import { EVENT_SUBJECTS, ruleRewardedEvent } from '@coin/contracts';
import type { ConsumerOptions } from '@coin/events';
import { POINTS_BOARD } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { dropMalformed, RETRY_DELIVERIES } from './malformed.ts';
import { recordStanding } from './record-standing.ts';

const DURABLE = 'leaderboard-rewards';

/** Each rule reward adds its points to the user's all-time points. */
export function rewardsConsumer(deps: LeaderboardDeps): Omit<ConsumerOptions<unknown>, 'nc' | 'log'> {
  return {
    durable: DURABLE,
    subject: EVENT_SUBJECTS.ruleRewarded,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    maxDeliver: RETRY_DELIVERIES,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
    handle: async (raw, msg) => {
      const parsed = ruleRewardedEvent.safeParse(raw);
      if (!parsed.success) return dropMalformed(deps.log, msg, parsed.error);
      const event = parsed.data;
      await recordStanding(
        deps,
        DURABLE,
        event.eventId,
        { partnerId: event.partnerId, board: POINTS_BOARD },
        { userId: event.userId, amount: event.points.toFixed(2), at: event.rewardedAt },
      );
    },
  };
}
