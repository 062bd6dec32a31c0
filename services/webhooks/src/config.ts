import { databaseConfigSchema, integer, loadServiceConfig } from '@coin/config';
import { z } from 'zod';

/** Svix's schedule: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
const DEFAULT_SCHEDULE = '0,5000,300000,1800000,7200000,18000000,36000000,36000000';

const schedule = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'must be comma-separated milliseconds')
  .transform((s) => s.split(',').map(Number));

const schema = databaseConfigSchema.extend({
  /** Delay before each attempt: the first entry before the first attempt, and so on. */
  WEBHOOK_RETRY_SCHEDULE_MS: schedule.default(schedule.parse(DEFAULT_SCHEDULE)),
  /** An attempt that has no 2xx within this time has failed. */
  WEBHOOK_TIMEOUT_MS: integer(15_000, { min: 50 }),
  /** Attempts in flight at once per replica (also the connection pool size per partner host). */
  WEBHOOK_CONCURRENCY: integer(16, { max: 256 }),
  WEBHOOK_POLL_MS: integer(500, { min: 10 }),
  /** How long a partner's webhook URL and secret are reused before identity is asked again. */
  WEBHOOK_PARTNER_CACHE_MS: integer(30_000, { min: 0 }),
});

export type WebhooksConfig = ReturnType<typeof webhooksConfig>;

export function webhooksConfig(env: NodeJS.ProcessEnv) {
  return loadServiceConfig('webhooks', schema, env);
}
