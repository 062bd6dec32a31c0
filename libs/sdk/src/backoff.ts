export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

/** Full jitter: a uniform delay between 0 and min(cap, base · 2^attempt), attempt counted from 0. */
export function backoffDelay(attempt: number, { baseMs, capMs }: BackoffOptions): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}
