import { boundQuery, type EntityManager } from '@coin/db';
import type { Job, JobQueue } from './queue.ts';

type Claim = Pick<Job<unknown>, 'id' | 'lease'>;

/** Every outcome is written only while the claim still owns the job (its lease is unchanged). */
const OWNED = 'id = $1 AND next_attempt_at = $2::timestamptz AND parked_at IS NULL';

async function settle(em: EntityManager, q: JobQueue, job: Claim, set: string, params: unknown[] = []) {
  const rows = await boundQuery(em, `UPDATE ${q.table} SET ${set} WHERE ${OWNED} RETURNING id`, [
    job.id,
    job.lease,
    ...params,
  ]);
  return rows.length > 0;
}

export function markDone(em: EntityManager, q: JobQueue, job: Claim): Promise<boolean> {
  return settle(em, q, job, ['last_error = NULL', q.onDone].filter(Boolean).join(', '));
}

export function runAgain(em: EntityManager, q: JobQueue, job: Claim): Promise<boolean> {
  return settle(em, q, job, 'attempts = 0, next_attempt_at = now(), last_error = NULL');
}

/** Due again after `delayMs`, or at `at` (a timestamp) when given. */
export function retryLater(
  em: EntityManager,
  q: JobQueue,
  job: Claim,
  error: string,
  when: { delayMs: number } | { at: string },
) {
  const due = 'at' in when ? '$4::timestamptz' : "now() + $4 * interval '1 millisecond'";
  const set = ['last_error = $3', `next_attempt_at = ${due}`, q.onRetry].filter(Boolean).join(', ');
  return settle(em, q, job, set, [error, 'at' in when ? when.at : when.delayMs]);
}

export function park(em: EntityManager, q: JobQueue, job: Claim, error: string): Promise<boolean> {
  return settle(em, q, job, ['parked_at = now()', 'last_error = $3', q.onPark].filter(Boolean).join(', '), [
    error,
  ]);
}
