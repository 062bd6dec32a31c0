import { boundQuery, type EntityManager } from '@coin/db';
import { type Job, type JobQueue, pendingOf } from './queue.ts';

export interface ClaimOptions {
  limit: number;
  leaseMs: number;
  /** Columns of the row to return beside the job's own. */
  columns?: string;
  /** Jobs of a fairness key at most in flight; with `running`, the ones this worker has already. */
  perKey?: number;
  running?: ReadonlyMap<string, number>;
}

const DUE = 'parked_at IS NULL AND next_attempt_at <= now()';

/** The due jobs to take: the oldest first, and where the queue is fair, none past a key's share. */
function candidates(q: JobQueue, opts: ClaimOptions): string {
  if (!q.fairnessKey || !opts.perKey)
    return `SELECT id FROM ${q.table} WHERE (${pendingOf(q)}) AND ${DUE}
             ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED`;
  // Row locks cannot be taken beside a window function: rank first, then lock what is still due.
  return `SELECT id FROM ${q.table}
           WHERE ${DUE} AND id IN (
             SELECT c.id FROM (
               SELECT id, next_attempt_at, ${q.fairnessKey}::text AS job_key,
                      row_number() OVER (PARTITION BY ${q.fairnessKey} ORDER BY next_attempt_at, id) AS rank
                 FROM ${q.table} WHERE (${pendingOf(q)}) AND ${DUE}) c
              WHERE c.rank + coalesce(($3::jsonb ->> c.job_key)::int, 0) <= $4
              ORDER BY c.next_attempt_at LIMIT $1)
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED`;
}

/**
 * Takes up to `limit` due jobs in one statement: FOR UPDATE SKIP LOCKED, so two workers never take
 * the same job, and the lease is written as the job's next due time, so a job whose worker died is
 * due again when its lease ends, with no lock held while it runs.
 */
export async function claimJobs<Row>(
  em: EntityManager,
  q: JobQueue,
  opts: ClaimOptions,
): Promise<Job<Row>[]> {
  const fair = Boolean(q.fairnessKey && opts.perKey);
  const params: unknown[] = [opts.limit, opts.leaseMs];
  if (fair) params.push(JSON.stringify(Object.fromEntries(opts.running ?? [])), opts.perKey);
  const key = q.fairnessKey ? `${q.fairnessKey}::text` : 'NULL::text';
  return boundQuery<Job<Row>>(
    em,
    `UPDATE ${q.table}
        SET attempts = attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
      WHERE id IN (${candidates(q, opts)})
      RETURNING id, attempts, next_attempt_at::text AS lease, ${key} AS job_key
                ${opts.columns ? `, ${opts.columns}` : ''}`,
    params,
  );
}
