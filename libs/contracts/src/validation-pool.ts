import { availableParallelism } from 'node:os';
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

let pool: Piscina<LargeRequestTask, LargeRequestResult> | undefined;

function workers(): Piscina<LargeRequestTask, LargeRequestResult> {
  pool ??= new Piscina({
    filename: new URL('./validation-worker.ts', import.meta.url).href,
    minThreads: 0,
    // Leaves a core to the event loop; large requests beyond the threads wait in the pool's queue.
    maxThreads: Math.max(1, availableParallelism() - 1),
    // Kept a while for the next large request, then let go so an idle process holds no thread.
    idleTimeout: 30_000,
  });
  return pool;
}

/**
 * Parses and validates a large request off the event loop, with the same zod contracts and the
 * same messages as `parseRequestParts`. An operation a worker cannot look up (one defined outside
 * the system's contracts, as tests do) is validated here.
 */
export function validateLargeRequest(
  op: Operation,
  task: Omit<LargeRequestTask, 'op'>,
): Promise<LargeRequestResult> | LargeRequestResult {
  const named = { ...task, op: op.subject };
  if (operationOn(op.subject) !== op) return validateHere(named, op);
  return workers().run(named);
}
