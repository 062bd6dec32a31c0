/**
 * `npm run parked -- jobs identity list [queue]` prints its parked jobs with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { identityConfig } from '../config.ts';
import { mailQueue } from '../domain/mail/mail-outbox.ts';
import { identityMigrations } from '../migrations/index.ts';

await runCommand('identity-parked', identityConfig(process.env), async ({ database }) => {
  const db = await database({ migrations: identityMigrations });
  return runParkedCommand(db, [mailQueue], process.argv.slice(2));
});
