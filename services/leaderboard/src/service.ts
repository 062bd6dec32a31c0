import { connectBus, serveOperations } from '@coin/bus';
import { openDatabase, requestScope } from '@coin/db';
import { startConsumer } from '@coin/events';
import { createLogger, type Stoppable } from '@coin/telemetry';
import { Redis } from 'ioredis';
import { BoardIndex } from './board-index.ts';
import { leaderboardConfig } from './config.ts';
import { rewardsConsumer } from './consumers/rewards.ts';
import { transfersConsumer } from './consumers/transfers.ts';
import { usersConsumer } from './consumers/users.ts';
import type { LeaderboardDeps } from './deps.ts';
import { leaderboardEntities } from './entities.ts';
import { leaderboardMigrations } from './migrations/index.ts';
import { coinLeaderboardHandler } from './operations/coin-leaderboard.ts';
import { pingHandler } from './operations/ping.ts';
import { pointsLeaderboardHandler } from './operations/points-leaderboard.ts';

/** RESP2: script replies keep the shapes the scripts return (board-index.ts), whatever the client's default. */
export function connectRedis(url: string): Redis {
  return new Redis(url, { protocol: 2, maxRetriesPerRequest: 2, enableAutoPipelining: true });
}

export async function startLeaderboard(env: NodeJS.ProcessEnv = process.env): Promise<Stoppable> {
  const config = leaderboardConfig(env);
  const log = createLogger('leaderboard', config.LOG_LEVEL);
  const orm = await openDatabase({
    url: config.databaseUrl,
    entities: leaderboardEntities,
    migrations: leaderboardMigrations,
    log,
  });
  const redis = connectRedis(config.REDIS_URL);
  const nc = await connectBus(config.NATS_URL, 'leaderboard');
  const index = new BoardIndex(redis, orm, log);
  const deps: LeaderboardDeps = { orm, nc, index, config, log };
  const service = serveOperations(nc, {
    service: 'leaderboard',
    version: '1.0.0',
    description: 'coin and points leaderboards',
    log,
    around: requestScope(orm),
    metricsPort: config.METRICS_PORT,
    handlers: [coinLeaderboardHandler(deps), pointsLeaderboardHandler(deps), pingHandler()],
  });
  const consumers = await Promise.all(
    [usersConsumer(deps), transfersConsumer(deps), rewardsConsumer(deps)].map((c) =>
      startConsumer({ ...c, nc, log }),
    ),
  );
  // An emptied or new Redis: boards are rebuilt in the background while reads use Postgres.
  const rebuilding = index.rebuildMissing().then(
    (n) => n && log.info({ boards: n }, 'leaderboard index rebuilt from Postgres at start'),
    (err) => log.warn({ err }, 'leaderboard index rebuild at start failed; boards served from Postgres'),
  );
  log.info({ id: service.id }, 'leaderboard started');
  return {
    async stop() {
      await service.stop();
      for (const c of consumers) await c.stop();
      await rebuilding;
      await index.idle();
      await nc.drain();
      redis.disconnect();
      await orm.close();
    },
  };
}
