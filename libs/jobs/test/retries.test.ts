import { boundQuery } from '@coin/db';
import { describe, expect, it } from 'vitest';
import { runParkedCommand } from '../src/index.ts';
import { db, enqueue, metric, queue, rows, sleep, until, useTestJobs, worker } from './support.ts';

useTestJobs();

describe('job worker: retries and parking', () => {
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
});
