import { z } from 'zod';

/** Settings every process shares; a service extends it with its own. */
export const baseConfigSchema = z.object({
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  DATABASE_URL_BASE: z.string().default('postgres://postgres@127.0.0.1:5432'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_MODE: z.enum(['development', 'production']).default('development'),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

/**
 * Parses the environment once at start. A bad value stops the process with a message naming the
 * variable, instead of failing later somewhere far from the cause.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  return parsed.data;
}

/** `<SERVICE>_DATABASE_URL`, or the service's own database on the shared server. */
export function databaseUrlFor(service: string, env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[`${service.toUpperCase()}_DATABASE_URL`];
  if (explicit) return explicit;
  const base = (env.DATABASE_URL_BASE ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  return `${base}/coin_${service}`;
}
