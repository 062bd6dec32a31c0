import { counter, gauge, oneReadPerScrape } from '@coin/telemetry';
import type { QueueReading } from './parked.ts';

const queues = new Map<string, { service: string; queue: string; read: () => Promise<QueueReading> }>();

/** Sets one gauge per watched queue at scrape time; a queue whose database cannot answer is left out. */
async function collect(
  set: (labels: { service: string; queue: string }, r: QueueReading) => void,
  clear: (labels: { service: string; queue: string }) => void,
) {
  await Promise.all(
    [...queues.values()].map(async ({ service, queue, read }) => {
      try {
        set({ service, queue }, await read());
      } catch {
        clear({ service, queue });
      }
    }),
  );
}

/** One gauge per part of a queue's reading, all fed by the same query at a scrape. */
function readingGauge(name: string, help: string, part: (r: QueueReading) => number) {
  return gauge({
    name,
    help,
    labelNames: ['service', 'queue'] as const,
    async collect() {
      await collect(
        (l, r) => this.set(l, part(r)),
        (l) => this.remove(l),
      );
    },
  });
}

const gauges = [
  readingGauge(
    'coin_job_backlog',
    'Jobs not finished and not parked, by service and queue',
    (r) => r.pending,
  ),
  readingGauge(
    'coin_job_oldest_age_seconds',
    'Age of the oldest job not finished and not parked (0 when none), by service and queue',
    (r) => r.oldestSeconds,
  ),
  readingGauge(
    'coin_job_parked',
    'Jobs parked after their last attempt (listed and replayed by `npm run parked`), by service and queue',
    (r) => r.parked,
  ),
];

export const jobRuns = counter({
  name: 'coin_job_runs_total',
  help: 'Job runs by service, queue and outcome (done, retry, parked)',
  labelNames: ['service', 'queue', 'outcome'] as const,
});

/** Reports a queue's backlog, oldest age and parked count at every scrape until the returned function is called. */
export function watchQueue(service: string, queue: string, read: () => Promise<QueueReading>): () => void {
  const key = `${service}/${queue}`;
  queues.set(key, { service, queue, read: oneReadPerScrape(read) });
  return () => {
    queues.delete(key);
    for (const g of gauges) g.remove({ service, queue });
  };
}
