/**
 * `npm run parked -- jobs webhooks list [queue]` prints its parked deliveries with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { webhooksConfig } from '../config.ts';
import { deliveryQueue } from '../domain/delivery-queue.ts';
import { webhooksMigrations } from '../migrations/index.ts';

await runCommand('webhooks-parked', webhooksConfig(process.env), async ({ database }) => {
  const db = await database({ migrations: webhooksMigrations });
  return runParkedCommand(db, [deliveryQueue], process.argv.slice(2));
});
