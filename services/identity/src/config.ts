import { databaseConfigSchema, loadServiceConfig } from '@coin/config';
import { z } from 'zod';

const schema = databaseConfigSchema.extend({
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 86_400),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  /** `smtp://user:pass@host:port` or `smtps://…`; without it (development mode only) mail is logged. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('Coin Rewards <no-reply@coin-rewards.local>'),
  SMTP_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  MAIL_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** Backoff between attempts to send one e-mail: base × 2^(attempt-1), capped. */
  MAIL_RETRY_BASE_MS: z.coerce.number().int().positive().default(2000),
  MAIL_RETRY_MAX_MS: z.coerce.number().int().positive().default(300_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  EMAIL_CODE_TTL_SECONDS: z.coerce.number().int().min(1).default(600),
  EMAIL_CODE_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  /** The least time between two codes for one account (resend-code). */
  EMAIL_CODE_RESEND_SECONDS: z.coerce.number().int().min(1).default(60),
});

export type IdentityConfig = ReturnType<typeof identityConfig>;

export function identityConfig(env: NodeJS.ProcessEnv) {
  const config = loadServiceConfig('identity', schema, env);
  // Without it account users never get their one-time code: better no release than a silent one.
  if (config.APP_MODE === 'production' && config.SMTP_URL === undefined)
    throw new Error(
      'invalid configuration: SMTP_URL: is required in production mode (account users get their one-time code by e-mail)',
    );
  return config;
}
