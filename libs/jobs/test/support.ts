// The job worker tests: one table of test jobs in an isolated database, emptied before each test.
import { randomUUID } from 'node:crypto';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  type JobQueue,
  type JobResult,
  type JobWorker,
  type JobWorkerOptions,
  startJobWorker,
} from '../src/index.ts';

const log = createLogger('jobs-test', 'silent');
const dbs = isolatedDatabases(['jobstest']);
export let db: Database;

export const queue: JobQueue = {
  name: 'test',
  table: 'test_jobs',
  unfinished: 'done_at IS NULL',
  fairnessKey: 'partner_id',
  onDone: 'done_at = now()',
};

export async function enqueue(count: number, partnerId: string = randomUUID()): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await boundQuery(db.em.fork(), 'INSERT INTO test_jobs (id, partner_id) SELECT unnest($1::uuid[]), $2', [
    ids,
    partnerId,
  ]);
  return ids;
}

interface Row {
  id: string;
  done_at: Date | null;
  attempts: number;
  last_error: string | null;
  parked_at: Date | null;
}

export async function rows(): Promise<Row[]> {
  return boundQuery<Row>(
    db.em.fork(),
    'SELECT id, done_at, attempts, last_error, parked_at FROM test_jobs',
    [],
  );
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function worker(
  run: (job: { id: string; attempts: number; job_key: string | null }) => Promise<JobResult>,
  extra: Partial<JobWorkerOptions<unknown>> = {},
): JobWorker {
  return startJobWorker({
    db,
    log,
    service: 'jobs-test',
    queue,
    run,
    concurrency: 8,
    leaseMs: 10_000,
    pollMs: 20,
    maxAttempts: 5,
    backoff: { baseMs: 10, capMs: 40 },
    ...extra,
  });
}

export async function metric(name: string, labels: string): Promise<number | undefined> {
  const { body } = await renderMetrics();
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && labels.split(',').every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

/** Registers the set-up and tear-down of the calling test file. */
export function useTestJobs(): void {
  beforeAll(async () => {
    db = await openDatabase({
      url: dbs.env.JOBSTEST_DATABASE_URL,
      migrationUrl: dbs.env.JOBSTEST_MIGRATION_DATABASE_URL,
      migrations: [],
      log,
    });
    await boundQuery(
      db.em.fork(),
      `CREATE TABLE test_jobs (
         id uuid PRIMARY KEY, partner_id uuid NOT NULL, done_at timestamptz,
         attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz NOT NULL DEFAULT now(),
         last_error text, parked_at timestamptz, created_at timestamptz NOT NULL DEFAULT now())`,
      [],
    );
  });

  beforeEach(async () => {
    await boundQuery(db.em.fork(), 'DELETE FROM test_jobs', []);
  });

  afterAll(async () => {
    await db?.close();
    await dbs.drop();
  });
}
