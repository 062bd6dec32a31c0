import { integer, serviceConfig } from '@coin/config';

export const rulesConfig = serviceConfig('rules', {
  /** How long a reward waits for the wallet (and onboarding) before leaving the payment pending. */
  RULES_CALL_TIMEOUT_MS: integer(2000),
  /** How often the retrier looks for pending rewards that are due. */
  REWARD_RETRY_POLL_MS: integer(1000),
  /** First retry delay of a pending reward; doubling up to REWARD_RETRY_MAX_MS, with full jitter. */
  REWARD_RETRY_BASE_MS: integer(1000),
  REWARD_RETRY_MAX_MS: integer(60_000),
  /** Attempts before a pending reward is parked: with the defaults, more than 24 hours of retries. */
  REWARD_MAX_ATTEMPTS: integer(3000),
  /** Pending rewards paid at once per replica; one partner takes at most half of them. */
  REWARD_RETRY_CONCURRENCY: integer(16),
});

export type RulesConfig = ReturnType<typeof rulesConfig>;
