import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { enqueue, rows, sleep, until, useTestJobs, worker } from './support.ts';

useTestJobs();

describe('job worker: order and fairness between partners', () => {
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
