import { backoffDelay } from '@coin/backoff';

export interface RetryPolicy {
  /** Backoff of the first retry; it doubles per delivery up to `capMs`, with full jitter. */
  baseMs: number;
  capMs: number;
  /** How long after its first delivery a failing event is still retried before it is parked. */
  forMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 500, capMs: 60_000, forMs: 24 * 3600_000 };

/** First deliveries remembered; past this the oldest are forgotten, which only lengthens their retries. */
const REMEMBERED = 100_000;

export type RetryDecision = { park: false; delayMs: number } | { park: true };

/**
 * Decides between retrying and parking on the time since an event's first delivery here, never on
 * a delivery count: a day of retries whether the backoff is fast or slow. The time is kept in
 * memory per stream sequence; a restart or another replica starts a fresh window, so an event is
 * never parked earlier than `forMs` after it was first tried, only sometimes later.
 */
export class RetryClock {
  readonly #firstTried = new Map<number, number>();
  readonly policy: RetryPolicy;
  readonly now: () => number;

  constructor(policy: RetryPolicy, now: () => number) {
    this.policy = policy;
    this.now = now;
  }

  /** Call when a delivery starts; returns the time of the event's first delivery. */
  tried(seq: number): number {
    let first = this.#firstTried.get(seq);
    if (first === undefined) {
      first = this.now();
      this.#firstTried.set(seq, first);
      if (this.#firstTried.size > REMEMBERED) this.#firstTried.delete(this.#firstTried.keys().next().value!);
    }
    return first;
  }

  failed(seq: number, deliveries: number): RetryDecision {
    const first = this.tried(seq);
    if (this.now() - first >= this.policy.forMs) {
      this.#firstTried.delete(seq);
      return { park: true };
    }
    return { park: false, delayMs: this.backoff(deliveries) };
  }

  backoff(deliveries: number): number {
    return backoffDelay(deliveries, this.policy);
  }

  done(seq: number): void {
    this.#firstTried.delete(seq);
  }
}
