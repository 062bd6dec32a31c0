/**
 * A Postgres work queue: the rows of one table of the service are its jobs, so a job is enqueued by
 * inserting its row in the caller's own transaction, and the domain keeps one record of the work.
 * The table has `id uuid`, `attempts integer`, `next_attempt_at timestamptz` (when the job is due;
 * while it runs, the end of its lease), `last_error text`, `parked_at timestamptz`, `created_at`.
 */
export interface JobQueue {
  /** The `queue` label of the metrics and the operator's name for it (`mail`, `webhook-delivery` ...). */
  name: string;
  table: string;
  /** SQL condition of the rows whose work is not finished, parked ones included. */
  unfinished: string;
  /**
   * The unfinished rows that are not parked, in the words of the queue's due-jobs index (the condition
   * its migration wrote beside `parked_at IS NULL`), when `unfinished` says it otherwise: the claim
   * and the backlog read that index only where Postgres can prove their condition implies its own.
   * Without it, a claim read the whole table, finished jobs included, at every poll. Defaults to
   * `unfinished`.
   */
  pending?: string;
  /** Column of the partner (or endpoint) a job belongs to: one key cannot take every worker slot. */
  fairnessKey?: string;
  /** SQL assignments made when a job is done, parked or replayed (a status the domain shows). */
  onDone?: string;
  onPark?: string;
  onReplay?: string;
  /** SQL assignments made when a failed run is due again later (backoff or `retryAt`). */
  onRetry?: string;
}

/** The condition of a queue's unparked unfinished rows that its due-jobs index states. */
export const pendingOf = (q: JobQueue): string => q.pending ?? q.unfinished;

/** A claimed job: its row's columns, plus the claim's attempt number and lease (the fencing token). */
export type Job<Row> = Row & { id: string; attempts: number; lease: string; job_key: string | null };

/**
 * What a run decided: `done` (finished, `onDone` applied), `again` (progress made and more left:
 * due again at once, behind the other due jobs, with its attempts counted afresh), `park` (no
 * retry can help) or `retryAt` (failed, due again at the time the run names rather than the
 * backoff's, and never parked for it: a run its caller added beside the job's own schedule). A run
 * that throws is retried with backoff, and parked after the last attempt.
 */
export type JobResult = 'done' | 'again' | { park: string } | { retryAt: string; error: string };
