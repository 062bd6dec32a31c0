/**
 * `npm run leaderboard:rebuild -w @coin/leaderboard`: rebuilds every board's Redis index from
 * Postgres. Each board is served from Postgres from the moment its rebuild starts until it is
 * complete, so running services never read a partial index.
 */
import { runCommand } from '@coin/startup';
import { leaderboardConfig } from '../config.ts';
import { BoardIndex } from '../domain/board-index.ts';
import { leaderboardMigrations } from '../migrations/index.ts';

await runCommand('leaderboard-rebuild', leaderboardConfig(process.env), async (ctx) => {
  const db = await ctx.database({ migrations: leaderboardMigrations });
  const began = performance.now();
  const boards = await new BoardIndex(ctx.redis(), db, ctx.log).forceRebuildAll();
  console.log(`rebuilt ${boards} board(s) in ${Math.round(performance.now() - began)} ms`);
  return 0;
});
