import { describe, expect, it } from 'vitest';
import { claimJobs, type JobResult } from '../src/index.ts';
import { db, enqueue, queue, rows, sleep, until, useTestJobs, worker } from './support.ts';

useTestJobs();

describe('job worker: claims and leases', () => {
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
});
