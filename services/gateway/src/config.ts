import { baseConfigSchema, integer, loadConfig } from '@coin/config';
import { z } from 'zod';
import { trustProxySetting } from './trust-proxy.ts';

const schema = baseConfigSchema.extend({
  PORT: integer(3000, { min: 0, max: 65535 }),
  HOST: z.string().default('127.0.0.1'),
  TRUST_PROXY: trustProxySetting,
  AUTH_RATE_LIMIT_MAX: integer(20),
  AUTH_RATE_LIMIT_WINDOW_MS: integer(60_000),
  /**
   * Requests per client address (an IPv6 /64) per window on every route, counted before
   * authentication in Redis across replicas (docs/partners/limits.md).
   */
  CLIENT_RATE_LIMIT_MAX: integer(6000),
  CLIENT_RATE_LIMIT_WINDOW_MS: integer(60_000),
  /** Calls per partner per window of an operation a partner triggers by hand (webhook redelivery). */
  PARTNER_ACTION_RATE_LIMIT_MAX: integer(30),
  PARTNER_ACTION_RATE_LIMIT_WINDOW_MS: integer(60_000),
  API_KEY_CACHE_MS: integer(30_000, { min: 0 }),
  /** An API key identity did not know is refused without asking again for this long. */
  API_KEY_MISS_CACHE_MS: integer(30_000, { min: 0 }),
  /**
   * Memory for answers served again within their operation's `freshForMs` (answer-cache.ts); a
   * points page with large user data is far larger than a coin board's.
   */
  ANSWER_CACHE_MAX_BYTES: integer(8 * 1024 * 1024),
  /**
   * A request answered 2xx/3xx within this many milliseconds is logged at debug, any other (an
   * error, or slow) at info: a line per transfer cost more CPU than the rest of its logging
   * (docs/decisions/2026-11-23-hot-path-costs-removed.md).
   */
  ACCESS_LOG_SLOW_MS: integer(1000, { min: 0 }),
  /** Where partners reach this API (the OpenAPI document's `servers`); `/` means the same origin. */
  PUBLIC_URL: z.string().default('/'),
  /** Services `/ready` waits for; by default every service that declares an operation. */
  READY_SERVICES: z.string().optional(),
});

export type GatewayConfig = z.infer<typeof schema>;

export function gatewayConfig(env: NodeJS.ProcessEnv): GatewayConfig {
  return loadConfig(schema, env);
}
