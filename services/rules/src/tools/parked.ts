/**
 * `npm run parked -- jobs rules list [queue]` prints its parked jobs and outbox rows with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { outboxQueue } from '@coin/events';
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { rulesConfig } from '../config.ts';
import { limitedRewardQueue, rewardQueue } from '../domain/rewards/retrier.ts';
import { rulesMigrations } from '../migrations/index.ts';

await runCommand('rules-parked', rulesConfig(process.env), async ({ database }) => {
  const db = await database({ migrations: rulesMigrations });
  return runParkedCommand(db, [rewardQueue, limitedRewardQueue, outboxQueue], process.argv.slice(2));
});
