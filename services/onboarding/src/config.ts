import { integer, serviceConfig } from '@coin/config';

export const onboardingConfig = serviceConfig('onboarding', {
  /** Users inserted per transaction while a request is processed. */
  ONBOARDING_CHUNK_SIZE: integer(5_000, { max: 20_000 }),
  /**
   * How long a replica owns a request's chunk it is processing, and so the chunk's statement timeout
   * (up to 5,000 users of up to 16 KB each in one statement); after that (a crash) another replica,
   * or the restarted one, takes it over from the last committed chunk.
   */
  ONBOARDING_LEASE_MS: integer(60_000, { min: 100 }),
  /** How often each replica looks for due requests (its own are handed over at once). */
  ONBOARDING_POLL_MS: integer(1_000, { min: 10 }),
  /** Requests processed at once per replica (one per partner), taking turns chunk by chunk. */
  ONBOARDING_CONCURRENCY: integer(2, { max: 64 }),
  /** A chunk that keeps failing is retried with backoff (full jitter) and its request parked after the last attempt. */
  ONBOARDING_RETRY_BASE_MS: integer(1_000),
  ONBOARDING_RETRY_MAX_MS: integer(300_000),
  ONBOARDING_MAX_ATTEMPTS: integer(600),
  /** How often each replica looks for tier reviews that are due (the end of a user's period). */
  TIER_REVIEW_POLL_MS: integer(5_000, { min: 10 }),
});

export type OnboardingConfig = ReturnType<typeof onboardingConfig>;
