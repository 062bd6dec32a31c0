import { baseConfigSchema, databaseUrlFor, loadConfig } from '@coin/config';
import { z } from 'zod';

const schema = baseConfigSchema.extend({
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 86_400),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
});

export type IdentityConfig = z.infer<typeof schema> & { databaseUrl: string };

export function identityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  return { ...loadConfig(schema, env), databaseUrl: databaseUrlFor('identity', env) };
}
