import { boundQuery, type EntityManager } from '@coin/db';
import { type JobQueue, pendingOf } from './queue.ts';

export interface ParkedJob {
  id: string;
  attempts: number;
  last_error: string | null;
  parked_at: Date;
  created_at: Date;
}

/** Parked jobs of a queue, the most recently parked first. */
export function listParked(em: EntityManager, q: JobQueue, limit = 100): Promise<ParkedJob[]> {
  return boundQuery<ParkedJob>(
    em,
    `SELECT id, attempts, last_error, parked_at, created_at FROM ${q.table}
      WHERE parked_at IS NOT NULL AND (${q.unfinished}) ORDER BY parked_at DESC LIMIT $1`,
    [limit],
  );
}

/**
 * Makes parked jobs due now with their attempts counted afresh (the last error is kept until the
 * next outcome): the given ids, or every parked job of the queue. Returns the ids replayed.
 */
export async function replayParked(
  em: EntityManager,
  q: JobQueue,
  ids: readonly string[] | 'all',
): Promise<string[]> {
  const set = ['parked_at = NULL', 'attempts = 0', 'next_attempt_at = now()', q.onReplay]
    .filter(Boolean)
    .join(', ');
  const rows = await boundQuery<{ id: string }>(
    em,
    `UPDATE ${q.table} SET ${set}
      WHERE parked_at IS NOT NULL AND (${q.unfinished}) AND ($1::uuid[] IS NULL OR id = ANY($1::uuid[]))
      RETURNING id`,
    [ids === 'all' ? null : ids],
  );
  return rows.map((r) => r.id);
}

export interface QueueReading {
  pending: number;
  oldestSeconds: number;
  parked: number;
}

/**
 * Jobs not finished and not parked, the age of the oldest of them, and the parked ones: one query,
 * each count read through its partial index (the due jobs', the parked ones'), so a scrape reads the
 * backlog and not the finished jobs beside it.
 */
export async function readQueue(em: EntityManager, q: JobQueue): Promise<QueueReading> {
  const waiting = `FROM ${q.table} WHERE (${pendingOf(q)}) AND parked_at IS NULL`;
  const [row] = await boundQuery<{ pending: number; parked: number; oldest: number | null }>(
    em,
    `SELECT (SELECT count(*) ${waiting})::int AS pending,
            (SELECT count(*) FROM ${q.table} WHERE parked_at IS NOT NULL AND (${q.unfinished}))::int AS parked,
            extract(epoch FROM now() - (SELECT min(created_at) ${waiting}))::float AS oldest`,
    [],
  );
  return { pending: row.pending, parked: row.parked, oldestSeconds: row.oldest ?? 0 };
}
