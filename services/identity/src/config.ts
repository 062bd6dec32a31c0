import { integer, serviceConfig } from '@coin/config';
import { z } from 'zod';
import { parseKeyEncryptionKey } from './domain/security/key-encryption.ts';

const keyEncryptionKey = z
  .string()
  .transform((value, ctx) => {
    const key = parseKeyEncryptionKey(value);
    if (!key)
      ctx.addIssue({ code: 'custom', message: 'must be 32 bytes in base64 (openssl rand -base64 32)' });
    return key ?? Buffer.alloc(0);
  })
  .optional();

const load = serviceConfig('identity', {
  ACCESS_TOKEN_TTL_SECONDS: integer(900, { min: 30, max: 86_400 }),
  REFRESH_TOKEN_TTL_SECONDS: integer(30 * 86_400, { min: 60 }),
  LOGIN_MAX_FAILURES: integer(5),
  LOGIN_LOCK_SECONDS: integer(900),
  /**
   * Past LOGIN_MAX_FAILURES attempts on one e-mail from all clients in a window, each attempt waits
   * this long, doubling per attempt up to LOGIN_DELAY_MAX_MS: a delay, never a lockout.
   */
  LOGIN_DELAY_BASE_MS: integer(250, { min: 0 }),
  LOGIN_DELAY_MAX_MS: integer(2000, { min: 0 }),
  /** `smtp://user:pass@host:port` or `smtps://…`; without it (development mode only) mail is logged. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('Coin Rewards <no-reply@coin-rewards.local>'),
  SMTP_TIMEOUT_MS: integer(10_000),
  MAIL_POLL_MS: integer(1000),
  /** Backoff between attempts to send one e-mail: base × 2^(attempt-1), capped. */
  MAIL_RETRY_BASE_MS: integer(2000),
  MAIL_RETRY_MAX_MS: integer(300_000),
  MAIL_MAX_ATTEMPTS: integer(8),
  /** Where partners reach the API: the base of the links identity mails (login unlock). */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3000'),
  EMAIL_CODE_TTL_SECONDS: integer(600),
  EMAIL_CODE_MAX_ATTEMPTS: integer(5),
  /** The least time between two codes for one account (resend-code). */
  EMAIL_CODE_RESEND_SECONDS: integer(60),
  /** The most codes mailed to one account user in a rolling day, sign-up's included. */
  EMAIL_CODE_MAX_PER_DAY: integer(5),
  /** Where the dashboard is served: invitation links point at its accept-invite page. */
  DASHBOARD_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3000/dashboard'),
  /** Encrypts the private signing keys and the webhook signing secrets in the database; required in production mode. */
  KEY_ENCRYPTION_KEY: keyEncryptionKey,
  /** The key KEY_ENCRYPTION_KEY replaced: still decrypts, and what it encrypted is re-encrypted at start. */
  KEY_ENCRYPTION_KEY_PREVIOUS: keyEncryptionKey,
  /** How long a rotated-out signing key still verifies tokens (keys:rotate --overlap-seconds overrides). */
  SIGNING_KEY_OVERLAP_SECONDS: integer(3600, { min: 0 }),
});

export type IdentityConfig = ReturnType<typeof identityConfig>;

export function identityConfig(env: NodeJS.ProcessEnv) {
  const config = load(env);
  // Without it account users never get their one-time code: better no release than a silent one.
  if (config.APP_MODE === 'production' && config.SMTP_URL === undefined)
    throw new Error(
      'invalid configuration: SMTP_URL: is required in production mode (account users get their one-time code by e-mail)',
    );
  if (config.APP_MODE === 'production' && config.KEY_ENCRYPTION_KEY === undefined)
    throw new Error(
      'invalid configuration: KEY_ENCRYPTION_KEY: is required in production mode (it encrypts the private signing keys and webhook secrets at rest)',
    );
  return config;
}
