import { EVENT_CONSUMERS, ruleRewardedEvent } from '@coin/contracts';
import type { RunningConsumer } from '@coin/events';
import type { LeaderboardDeps } from '../deps.ts';
import { POINTS_BOARD } from '../domain/boards.ts';
import { consumeStandings } from './record-standing.ts';

/** Each rule reward adds its points to the user's all-time points. */
export function consumeRewards(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return consumeStandings(deps, {
    ...EVENT_CONSUMERS.leaderboardRewards,
    schema: ruleRewardedEvent,
    changeOf: (event) => ({
      ref: { partnerId: event.partnerId, board: POINTS_BOARD },
      userId: event.userId,
      amount: event.points.toFixed(2),
      at: event.rewardedAt,
    }),
  });
}
