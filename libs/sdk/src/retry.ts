// The project's one backoff (full jitter), bundled into the published SDK.
import { backoffDelay } from '@coin/backoff';
import type { Operation } from '@coin/contracts';
import { CoinApiError, CoinNetworkError } from './errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  capMs: number;
  /**
   * The longest `Retry-After` the client waits out by itself; a longer one is thrown to you at
   * once (its `retryAfterSeconds` says when to come back).
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  attempts: 4,
  baseMs: 200,
  capMs: 5_000,
  maxRetryAfterMs: 60_000,
};

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Reads change nothing, so answering them twice is harmless. */
function isRead(op: Operation): boolean {
  return op.http!.method === 'GET' && !op.schemas.body;
}

/**
 * Whether asking again is safe. A 503 means the operation was not done (nobody took it, or a
 * dependency refused it), and 409 `IDEMPOTENCY_IN_PROGRESS` that its first attempt is still running;
 * a 429 was refused before it ran, but only reads and keyed calls are sent again (as the API's
 * guide says), as after a 504 or a lost connection, where it may have been done.
 */
export function isRetryable(err: unknown, op: Operation, keyed: boolean): boolean {
  const safe = keyed || isRead(op);
  if (err instanceof CoinApiError) {
    if (err.status === 503) return true;
    if (err.status === 409) return err.appErrorCode === 'IDEMPOTENCY_IN_PROGRESS';
    return (err.status === 429 || err.status === 504) && safe;
  }
  return err instanceof CoinNetworkError && safe;
}

/**
 * The wait before retry number `retry` (1 for the first), or undefined when the server asked for a
 * longer pause than the client waits out: the backoff, and at least what `Retry-After` asked.
 */
export function retryDelay(err: unknown, retry: number, options: RetryOptions): number | undefined {
  const backoff = backoffDelay(retry, options);
  const seconds = err instanceof CoinApiError ? err.retryAfterSeconds : undefined;
  if (seconds === undefined) return backoff;
  const asked = seconds * 1000;
  return asked > options.maxRetryAfterMs ? undefined : Math.max(asked, backoff);
}
