/**
 * `npm run parked -- jobs wallet list [queue]` prints its parked outbox rows with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { outboxQueue } from '@coin/events';
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { walletConfig } from '../config.ts';
import { walletMigrations } from '../migrations/index.ts';

await runCommand('wallet-parked', walletConfig(process.env), async ({ database }) => {
  const db = await database({ migrations: walletMigrations });
  return runParkedCommand(db, [outboxQueue], process.argv.slice(2));
});
