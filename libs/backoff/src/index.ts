export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

/**
 * The delay before retry number `attempt` (1 for the first retry): exponential, capped, with full
 * jitter (a uniform draw below the exponential bound), so failures that happened together (an
 * outage) spread their retries instead of coming back in step.
 */
export function backoffDelay(attempt: number, { baseMs, capMs }: BackoffOptions): number {
  const bound = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 52));
  return Math.floor(Math.random() * bound);
}
