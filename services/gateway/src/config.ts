import { baseConfigSchema, loadConfig } from '@coin/config';
import { z } from 'zod';

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

const schema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  TRUST_PROXY: flag.default(false),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
  AUTH_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
  /** Where partners reach this API (the OpenAPI document's `servers`); `/` means the same origin. */
  PUBLIC_URL: z.string().default('/'),
  /** Services `/ready` waits for; by default every service that declares an operation. */
  READY_SERVICES: z.string().optional(),
});

export type GatewayConfig = z.infer<typeof schema>;

export function gatewayConfig(env: NodeJS.ProcessEnv): GatewayConfig {
  return loadConfig(schema, env);
}
