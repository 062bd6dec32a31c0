import { availableParallelism } from 'node:os';
import { AppError } from '@coin/errors';
import { Piscina } from 'piscina';
import type { Operation } from './operation.ts';
import validateHere, {
  type LargeRequestResult,
  type LargeRequestTask,
  operationOn,
} from './validation-worker.ts';

export { parseJsonText } from './json-text.ts';
export type { LargeRequestResult, LargeRequestTask } from './validation-worker.ts';

/**
 * Above this many bytes a request's JSON is parsed and validated on a worker thread: a
 * 100,000-user onboarding body takes seconds of a thread, which on the event loop would stall every
 * other partner's requests for that long. Below it a thread hop costs more than it saves
 * (docs/decisions/2026-11-23-large-requests-off-event-loop.md).
 */
export const LARGE_REQUEST_BYTES = 256 * 1024;

/** Leaves a core to the event loop; large requests beyond the threads wait in the pool's queue. */
const THREADS = Math.max(1, availableParallelism() - 1);

/**
 * Large requests that may wait for a thread. Each holds its text (up to the onboarding limit, 32 MiB)
 * while it waits, so the queue is what bounds the heap they take; one more is answered 503 at once.
 */
const QUEUE = 2 * THREADS;

/** What a client refused for a full queue is asked to wait: about two 100,000-user validations. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/** How many large requests the pool takes at once: one per thread and the queue. */
export const LARGE_REQUEST_CAPACITY = THREADS + QUEUE;

let pool: Piscina<LargeRequestTask, LargeRequestResult> | undefined;

function workers(): Piscina<LargeRequestTask, LargeRequestResult> {
  pool ??= new Piscina({
    filename: new URL('./validation-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: THREADS,
    maxQueue: QUEUE,
    // Kept a while for the next large request, then let go so an idle process holds no thread.
    idleTimeout: 30_000,
  });
  return pool;
}

/**
 * Parses and validates a large request off the event loop, with the same zod contracts and the
 * same messages as `parseRequestParts`. An operation a worker cannot look up (one defined outside
 * the system's contracts, as tests do) is validated here. With every thread busy and the queue
 * full it throws a 503 AppError with Retry-After instead of waiting.
 */
export function validateLargeRequest(
  op: Operation,
  task: Omit<LargeRequestTask, 'op'>,
): Promise<LargeRequestResult> | LargeRequestResult {
  const named = { ...task, op: op.subject };
  if (operationOn(op.subject) !== op) return validateHere(named, op);
  const threads = workers();
  if (threads.queueSize >= QUEUE) throw busy();
  return threads.run(named).catch((err: Error) => {
    throw threads.queueSize >= QUEUE ? busy() : err;
  });
}

function busy(): AppError {
  return AppError.unavailable(
    `${LARGE_REQUEST_CAPACITY} large requests are being validated already; retry in a few seconds`,
    BUSY_RETRY_AFTER_SECONDS,
  );
}
