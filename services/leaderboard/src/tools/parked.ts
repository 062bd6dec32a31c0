/**
 * `npm run parked -- jobs leaderboard list [queue]` prints its parked outbox rows with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { outboxQueue } from '@coin/events';
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { leaderboardConfig } from '../config.ts';
import { leaderboardMigrations } from '../migrations/index.ts';

await runCommand('leaderboard-parked', leaderboardConfig(process.env), async ({ database }) => {
  const orm = await database({ migrations: leaderboardMigrations });
  return runParkedCommand(orm, [outboxQueue], process.argv.slice(2));
});
