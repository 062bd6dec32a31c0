import { EVENT_CONSUMERS, EVENT_SUBJECTS, ruleRewardedEvent } from '@coin/contracts';
import { type RunningConsumer, startConsumer } from '@coin/events';
import { POINTS_BOARD } from '../boards.ts';
import type { LeaderboardDeps } from '../deps.ts';
import { recordStanding } from './record-standing.ts';

const DURABLE = EVENT_CONSUMERS.leaderboardRewards.durable;

/** Each rule reward adds its points to the user's all-time points. */
export function consumeRewards(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return startConsumer({
    nc: deps.nc,
    log: deps.log,
    durable: DURABLE,
    subject: EVENT_SUBJECTS.ruleRewarded,
    schema: ruleRewardedEvent,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
    handle: (event) =>
      recordStanding(
        deps,
        DURABLE,
        event.eventId,
        { partnerId: event.partnerId, board: POINTS_BOARD },
        { userId: event.userId, amount: event.points.toFixed(2), at: event.rewardedAt },
      ),
  });
}
