/**
 * `npm run leaderboard:rebuild -w @coin/leaderboard`: rebuilds every board's Redis index from
 * Postgres. Each board is served from Postgres from the moment its rebuild starts until it is
 * complete, so running services never read a partial index.
 */
import { openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { BoardIndex } from './board-index.ts';
import { leaderboardConfig } from './config.ts';
import { leaderboardEntities } from './entities.ts';
import { leaderboardMigrations } from './migrations/index.ts';
import { connectRedis } from './service.ts';

const config = leaderboardConfig(process.env);
const log = createLogger('leaderboard-rebuild', config.LOG_LEVEL);
const orm = await openDatabase({
  url: config.databaseUrl,
  entities: leaderboardEntities,
  migrations: leaderboardMigrations,
  log,
});
const redis = connectRedis(config.REDIS_URL);
const began = performance.now();
const boards = await new BoardIndex(redis, orm, log).forceRebuildAll();
console.log(`rebuilt ${boards} board(s) in ${Math.round(performance.now() - began)} ms`);
redis.disconnect();
await orm.close();
