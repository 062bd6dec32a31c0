/**
 * `npm run parked -- jobs onboarding list [queue]` prints its parked jobs and outbox rows with their errors;
 * `… -- replay <queue> <id>… | --all` makes them due again. See docs/operating/events-and-parked-work.md.
 */
import { outboxQueue } from '@coin/events';
import { runParkedCommand } from '@coin/jobs';
import { runCommand } from '@coin/startup';
import { onboardingConfig } from '../config.ts';
import { onboardingQueue } from '../domain/processing/request-processor.ts';
import { tierReviewQueue } from '../domain/tiers/review-job.ts';
import { onboardingMigrations } from '../migrations/index.ts';

await runCommand('onboarding-parked', onboardingConfig(process.env), async ({ database }) => {
  const db = await database({ migrations: onboardingMigrations });
  return runParkedCommand(db, [onboardingQueue, tierReviewQueue, outboxQueue], process.argv.slice(2));
});
