import { type BackoffOptions, backoffDelay } from '@coin/backoff';
import type { Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import { claimJobs } from './claim.ts';
import { jobRuns, watchQueue } from './metrics.ts';
import { readQueue } from './parked.ts';
import { startPollLoop } from './poll-loop.ts';
import type { Job, JobQueue, JobResult } from './queue.ts';
import { markDone, park, retryLater, runAgain } from './settle.ts';

export interface JobWorkerOptions<Row> {
  db: Database;
  log: Logger;
  /** The `service` label of the job metrics. */
  service: string;
  queue: JobQueue;
  /** Columns of the job's row the run needs. */
  columns?: string;
  run: (job: Job<Row>) => Promise<JobResult>;
  /** Jobs running at once in this process. */
  concurrency: number;
  /** Jobs of one fairness key running at once in this process (the queue's `fairnessKey`). */
  perKeyConcurrency?: number;
  /** How long a claimed job is left alone by other workers; longer than a run can take. */
  leaseMs: number;
  pollMs: number;
  /** Attempts before a job whose runs keep failing is parked. */
  maxAttempts: number;
  backoff: BackoffOptions;
}

export interface JobWorker {
  /** Look for due jobs now rather than at the next poll (call after a commit that enqueued one). */
  notify(): void;
  /** Stops claiming and waits for the runs under way. */
  stop(): Promise<void>;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message || err.name : String(err));

/**
 * Runs a queue's jobs: each run independently of the others (a slow job holds its own slot only,
 * and a freed slot is filled at once), at most `perKeyConcurrency` of one partner at a time, and
 * every outcome written under the claim's lease, so a worker that lost its job to another (its
 * lease ran out) changes nothing.
 */
export function startJobWorker<Row>(opts: JobWorkerOptions<Row>): JobWorker {
  const { db, queue, log } = opts;
  const running = new Map<string, number>();
  const runs = new Set<Promise<void>>();
  const count = (outcome: 'done' | 'retry' | 'parked') =>
    jobRuns.inc({ service: opts.service, queue: queue.name, outcome });

  async function settle(job: Job<Row>): Promise<void> {
    const em = db.em.fork();
    try {
      const result = await opts.run(job);
      if (result === 'done') await markDone(em, queue, job);
      else if (result === 'again') await runAgain(em, queue, job);
      else if ('retryAt' in result) {
        await retryLater(em, queue, job, result.error, { at: result.retryAt });
        return count('retry');
      } else {
        await park(em, queue, job, result.park);
        log.error({ jobId: job.id, reason: result.park }, `${queue.name} job parked`);
        return count('parked');
      }
      count('done');
    } catch (err) {
      const reason = reasonOf(err);
      if (job.attempts >= opts.maxAttempts) {
        await park(em, queue, job, reason);
        log.error(
          { err, jobId: job.id, attempts: job.attempts },
          `${queue.name} job parked after its last attempt`,
        );
        return count('parked');
      }
      const delay = backoffDelay(job.attempts, opts.backoff);
      await retryLater(em, queue, job, reason, { delayMs: delay });
      log.warn(
        { err, jobId: job.id, attempt: job.attempts, retryInMs: delay },
        `${queue.name} job failed; will retry`,
      );
      count('retry');
    }
  }

  function start(job: Job<Row>): void {
    const key = job.job_key ?? '';
    running.set(key, (running.get(key) ?? 0) + 1);
    const run = settle(job)
      .catch((err) =>
        log.error(
          { err, jobId: job.id },
          `${queue.name} job outcome not recorded; its lease will bring it back`,
        ),
      )
      .finally(() => {
        const left = (running.get(key) ?? 1) - 1;
        if (left > 0) running.set(key, left);
        else running.delete(key);
        runs.delete(run);
        loop.notify();
      });
    runs.add(run);
  }

  async function claimFreeSlots(): Promise<number> {
    const free = opts.concurrency - runs.size;
    if (free <= 0) return 0;
    const jobs = await claimJobs<Row>(db.em.fork(), queue, {
      limit: free,
      leaseMs: opts.leaseMs,
      columns: opts.columns,
      perKey: opts.perKeyConcurrency,
      running,
    });
    for (const job of jobs) start(job);
    return jobs.length;
  }

  const loop = startPollLoop({
    once: claimFreeSlots,
    intervalMs: opts.pollMs,
    onError: (err) => log.warn({ err }, `${queue.name} jobs could not be claimed; will retry`),
  });
  const unwatch = watchQueue(opts.service, queue.name, () => readQueue(db.em.fork(), queue));

  return {
    notify: loop.notify,
    async stop() {
      unwatch();
      await loop.stop();
      await Promise.all([...runs]);
    },
  };
}
