import { randomUUID } from 'node:crypto';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  claimJobs,
  type JobQueue,
  type JobResult,
  type JobWorker,
  type JobWorkerOptions,
  runParkedCommand,
  startJobWorker,
} from '../src/index.ts';

const log = createLogger('jobs-test', 'silent');
const dbs = isolatedDatabases(['jobstest']);
let db: Database;

const queue: JobQueue = {
  name: 'test',
  table: 'test_jobs',
  unfinished: 'done_at IS NULL',
  fairnessKey: 'partner_id',
  onDone: 'done_at = now()',
};

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

async function enqueue(count: number, partnerId: string = randomUUID()): Promise<string[]> {
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

async function rows(): Promise<Row[]> {
  return boundQuery<Row>(
    db.em.fork(),
    'SELECT id, done_at, attempts, last_error, parked_at FROM test_jobs',
    [],
  );
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function worker(
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

async function metric(name: string, labels: string): Promise<number | undefined> {
  const { body } = await renderMetrics();
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && labels.split(',').every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('job worker', () => {
  it('runs each job exactly once with two workers claiming side by side', async () => {
    const ids = await enqueue(150);
    const runs: string[] = [];
    const take = async (job: { id: string }): Promise<JobResult> => {
      runs.push(job.id);
      await sleep(Math.floor(Math.random() * 5));
      return 'done';
    };
    const workers = [worker(take), worker(take)];
    try {
      workers.forEach((w) => {
        w.notify();
      });
      await until(async () => (await rows()).every((r) => r.done_at !== null));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(runs.sort()).toEqual([...ids].sort());
    for (const r of await rows()) expect(r.attempts).toBe(1);
  });

  it('takes a job again once the lease of a worker that died has ended', async () => {
    const [id] = await enqueue(1);
    // A worker that claimed the job and died: nothing will ever settle its claim.
    const [claimed] = await claimJobs(db.em.fork(), queue, { limit: 1, leaseMs: 300 });
    expect(claimed.id).toBe(id);
    const seen: number[] = [];
    const w = worker(async (job) => {
      seen.push(job.attempts);
      return 'done';
    });
    try {
      await sleep(150);
      expect(seen).toEqual([]);
      await until(async () => (await rows())[0].done_at !== null);
    } finally {
      await w.stop();
    }
    expect(seen).toEqual([2]);
  });

  it('ignores the late outcome of a worker whose lease was taken over', async () => {
    await enqueue(1);
    const slow = worker(
      async () => {
        await sleep(700);
        return { park: 'stale outcome' };
      },
      { leaseMs: 200 },
    );
    await sleep(100);
    const fast = worker(async () => 'done');
    try {
      await until(async () => (await rows())[0].done_at !== null);
    } finally {
      await fast.stop();
      await slow.stop();
    }
    const [r] = await rows();
    expect(r.parked_at).toBeNull();
    expect(r.done_at).not.toBeNull();
  });

  it('takes a run that names its retry time at its word: due then, with the error, and never parked for it', async () => {
    const [id] = await enqueue(1);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const w = worker(async () => ({ retryAt: at, error: 'partner endpoint down' }), { maxAttempts: 1 });
    try {
      await until(async () => (await rows())[0].last_error !== null);
    } finally {
      await w.stop();
    }
    const [due] = await boundQuery<{ on_time: boolean; parked_at: Date | null; last_error: string }>(
      db.em.fork(),
      'SELECT next_attempt_at = $2::timestamptz AS on_time, parked_at, last_error FROM test_jobs WHERE id = $1',
      [id, at],
    );
    expect(due).toEqual({ on_time: true, parked_at: null, last_error: 'partner endpoint down' });
  });

  it('retries with backoff, parks after the last attempt with its error, counts it, lists it and replays it', async () => {
    const [id] = await enqueue(1);
    let healthy = false;
    const w = worker(
      async () => {
        if (!healthy) throw new Error('endpoint refused: boom');
        return 'done';
      },
      { maxAttempts: 3 },
    );
    try {
      await until(async () => (await rows())[0].parked_at !== null);
      const [parked] = await rows();
      expect(parked.attempts).toBe(3);
      expect(parked.last_error).toBe('endpoint refused: boom');
      expect(parked.done_at).toBeNull();
      expect(await metric('coin_job_parked', 'queue="test"')).toBe(1);
      expect(await metric('coin_job_runs_total', 'queue="test",outcome="retry"')).toBeGreaterThanOrEqual(2);
      expect(await metric('coin_job_runs_total', 'queue="test",outcome="parked"')).toBeGreaterThanOrEqual(1);

      const listed: string[] = [];
      expect(await runParkedCommand(db, [queue], ['list'], (l) => listed.push(l))).toBe(0);
      expect(listed.map((l) => JSON.parse(l))).toEqual([
        expect.objectContaining({ queue: 'test', id, attempts: 3, error: 'endpoint refused: boom' }),
      ]);

      healthy = true;
      const replayed: string[] = [];
      expect(await runParkedCommand(db, [queue], ['replay', 'test', id], (l) => replayed.push(l))).toBe(0);
      expect(replayed[0]).toMatch(/^1 test job\(s\) replayed/);
      w.notify();
      await until(async () => (await rows())[0].done_at !== null);
      // A scrape reuses a reading for a second.
      await sleep(1100);
      expect(await metric('coin_job_parked', 'queue="test"')).toBe(0);
    } finally {
      await w.stop();
    }
  });

  it('parks at once a job whose run says no retry can help', async () => {
    await enqueue(1);
    const w = worker(async () => ({ park: 'gone for good' }));
    try {
      await until(async () => (await rows())[0].parked_at !== null);
    } finally {
      await w.stop();
    }
    const [r] = await rows();
    expect([r.attempts, r.last_error]).toEqual([1, 'gone for good']);
  });

  it('lets no partner take every slot: another partner runs while one partner hangs', async () => {
    const slowPartner = randomUUID();
    await enqueue(10, slowPartner);
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((r) => {
      release = r;
    });
    let inFlightSlow = 0;
    let maxInFlightSlow = 0;
    const w = worker(
      async (job) => {
        if (job.job_key !== slowPartner) return 'done';
        inFlightSlow++;
        maxInFlightSlow = Math.max(maxInFlightSlow, inFlightSlow);
        await hanging;
        inFlightSlow--;
        return 'done';
      },
      { concurrency: 4, perKeyConcurrency: 2 },
    );
    try {
      await until(() => inFlightSlow === 2);
      const [other] = await enqueue(1);
      w.notify();
      await until(async () => (await rows()).find((r) => r.id === other)?.done_at != null, 3000);
      expect(maxInFlightSlow).toBe(2);
    } finally {
      release();
      await w.stop();
    }
  });

  it('puts a job that made progress behind the other due jobs', async () => {
    const [big] = await enqueue(1);
    await sleep(5);
    const [small] = await enqueue(1);
    const order: string[] = [];
    let bigRuns = 0;
    const w = worker(
      async (job) => {
        order.push(job.id === big ? 'big' : 'small');
        if (job.id === big && ++bigRuns < 3) return 'again';
        return 'done';
      },
      { concurrency: 1 },
    );
    try {
      await until(async () => (await rows()).every((r) => r.done_at !== null));
    } finally {
      await w.stop();
    }
    expect(order).toEqual(['big', 'small', 'big', 'big']);
    expect(small).toBeDefined();
  });
});
