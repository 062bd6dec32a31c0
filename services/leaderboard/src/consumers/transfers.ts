import { EVENT_CONSUMERS, transferCompletedEvent } from '@coin/contracts';
import type { RunningConsumer } from '@coin/events';
import type { LeaderboardDeps } from '../deps.ts';
import { coinBoardAt } from '../domain/boards.ts';
import { consumeStandings } from './record-standing.ts';

/** Coins credited to a user (CR) count toward the earner board of the transfer's UTC month. */
export function consumeTransfers(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return consumeStandings(deps, {
    ...EVENT_CONSUMERS.leaderboardTransfers,
    schema: transferCompletedEvent,
    changeOf: (event) =>
      event.debitOrCredit === 'CR'
        ? {
            ref: { partnerId: event.partnerId, board: coinBoardAt(event.createdAt) },
            userId: event.userId,
            amount: event.coins,
            at: event.createdAt,
          }
        : undefined,
  });
}
