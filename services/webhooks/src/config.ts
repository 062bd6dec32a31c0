import { integer, serviceConfig } from '@coin/config';

export const webhooksConfig = serviceConfig('webhooks', {
  /**
   * Retries back off from WEBHOOK_RETRY_BASE_MS, doubling up to WEBHOOK_RETRY_MAX_MS (full jitter);
   * the defaults spread 18 attempts over about 30 hours, after which the delivery is failed.
   */
  WEBHOOK_RETRY_BASE_MS: integer(10_000),
  WEBHOOK_RETRY_MAX_MS: integer(36_000_000),
  WEBHOOK_MAX_ATTEMPTS: integer(18),
  /** An attempt that has no 2xx within this time has failed. */
  WEBHOOK_TIMEOUT_MS: integer(15_000, { min: 50 }),
  /** Attempts in flight at once per replica (also the connection pool size per partner host). */
  WEBHOOK_CONCURRENCY: integer(16, { max: 256 }),
  /** Attempts of one partner in flight at once per replica: a hanging endpoint holds only these. */
  WEBHOOK_PARTNER_CONCURRENCY: integer(4, { max: 256 }),
  WEBHOOK_POLL_MS: integer(500, { min: 10 }),
  /** How long a partner's webhook URL and secret are reused before identity is asked again. */
  WEBHOOK_PARTNER_CACHE_MS: integer(30_000, { min: 0 }),
});

export type WebhooksConfig = ReturnType<typeof webhooksConfig>;
