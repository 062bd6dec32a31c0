/**
 * `npm run parked -- jobs webhooks list [queue]` prints its parked jobs and outbox rows with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { outboxQueue } from '@coin/events';
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { webhooksConfig } from '../config.ts';
import { deliveryQueue } from '../delivery/delivery-queue.ts';
import { webhooksMigrations } from '../migrations/index.ts';

await runCommand('webhooks-parked', webhooksConfig(process.env), async ({ database }) => {
  const orm = await database({ migrations: webhooksMigrations });
  return runParkedCommand(orm, [deliveryQueue, outboxQueue], process.argv.slice(2));
});
