import { counter, type ScrapedGauges, scrapedGauges } from '@coin/telemetry';
import type { QueueReading } from './parked.ts';

/**
 * The three gauges of stored work waiting to be done (jobs, outbox rows): how much is waiting, the
 * age of the oldest, and how much is parked, named `names` and labelled `labelNames`.
 */
export function backlogGauges<L extends string>(
  work: string,
  names: { pending: string; oldest: string; parked: string },
  labelNames: readonly L[],
): ScrapedGauges<L, QueueReading> {
  const by = `by ${labelNames.join(' and ')}`;
  return scrapedGauges<L, QueueReading>(labelNames, [
    { name: names.pending, help: `${work} not finished and not parked, ${by}`, value: (r) => r.pending },
    {
      name: names.oldest,
      help: `Age of the oldest of them (0 when none), ${by}`,
      value: (r) => r.oldestSeconds,
    },
    {
      name: names.parked,
      help: `${work} parked after their last attempt (listed and replayed by \`npm run parked\`), ${by}`,
      value: (r) => r.parked,
    },
  ]);
}

const queueGauges = backlogGauges(
  'Jobs',
  { pending: 'coin_job_backlog', oldest: 'coin_job_oldest_age_seconds', parked: 'coin_job_parked' },
  ['service', 'queue'],
);

export const jobRuns = counter({
  name: 'coin_job_runs_total',
  help: 'Job runs by service, queue and outcome (done, retry, parked)',
  labelNames: ['service', 'queue', 'outcome'] as const,
});

/** Reports a queue's backlog, oldest age and parked count at every scrape until the returned function is called. */
export function watchQueue(service: string, queue: string, read: () => Promise<QueueReading>): () => void {
  return queueGauges.watch({ service, queue }, read);
}
