import { startAppliedEventsRetention } from '@coin/events';
import { startService } from '@coin/startup';
import { leaderboardConfig } from './config.ts';
import { consumeReversals } from './consumers/reversals.ts';
import { consumeRewards } from './consumers/rewards.ts';
import { consumeTransfers } from './consumers/transfers.ts';
import { consumeUsers } from './consumers/users.ts';
import type { LeaderboardDeps } from './deps.ts';
import { BoardIndex } from './domain/board-index.ts';
import { leaderboardMigrations } from './migrations/index.ts';
import { coinLeaderboardHandler } from './operations/coin-leaderboard.ts';
import { pingHandler } from './operations/ping.ts';
import { pointsLeaderboardHandler } from './operations/points-leaderboard.ts';

export async function startLeaderboard(env: NodeJS.ProcessEnv = process.env) {
  return startService(leaderboardConfig(env), {
    description: 'coin and points leaderboards',
    redis: true,
    async start({ config, db, nc, redis, log, background }) {
      const index = new BoardIndex(redis, db, log);
      const deps: LeaderboardDeps = { db, nc, index, config, log };
      // An emptied or new Redis: boards are rebuilt in the background while reads use Postgres.
      const rebuilding = index.rebuildMissing().then(
        (n) => n && log.info({ boards: n }, 'leaderboard index rebuilt from Postgres at start'),
        (err) => log.warn({ err }, 'leaderboard index rebuild at start failed; boards served from Postgres'),
      );
      background({ stop: () => rebuilding.then(() => index.idle()) }, 'board index');
      background(await consumeUsers(deps), 'users consumer');
      background(await consumeTransfers(deps), 'transfers consumer');
      background(await consumeRewards(deps), 'rewards consumer');
      background(await consumeReversals(deps), 'reversals consumer');
      background(startAppliedEventsRetention({ db, log, service: config.service }), 'applied ids purge');
      return [coinLeaderboardHandler(deps), pointsLeaderboardHandler(deps), pingHandler()];
    },
    database: { migrations: leaderboardMigrations },
  });
}
