import { z } from 'zod';

import { DEVELOPMENT_DATABASE_SERVER, databaseUrlFor, startMigrationUrlFor } from './database-urls.ts';

export { runSubcommand } from './command-line.ts';
export { adminUrlFor, databaseUrlFor, migrationUrlFor } from './database-urls.ts';
export { productionProtections } from './production-protections.ts';
export { natsTls, redisOptions } from './transport.ts';

/**
 * A whole-number setting (a count, milliseconds, seconds): its default and the bounds a value must
 * keep, at least 1 unless `min` says otherwise.
 */
export function integer(fallback: number, bounds: { min?: number; max?: number } = {}) {
  const atLeast = z.coerce
    .number()
    .int()
    .min(bounds.min ?? 1);
  return (bounds.max === undefined ? atLeast : atLeast.max(bounds.max)).default(fallback);
}

/** Settings every process shares; a service extends it with its own. */
export const baseConfigSchema = z.object({
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /**
   * Gives a set of processes subjects, a stream and durable consumers of their own on a shared
   * NATS server (test stacks, or two environments on one server). Every process of one
   * environment must use the same value.
   */
  NATS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_]{0,32}$/, 'must be at most 32 letters, digits or _')
    .default(''),
  /**
   * Replicas of the JetStream streams this environment creates (events, parked events): 1 on a single
   * server, 3 on a 3-node cluster (the production overlay), so a node loss loses no event.
   */
  EVENTS_STREAM_REPLICAS: integer(1, { max: 5 }),
  /**
   * This process's NATS user (an nkey seed, `SU…`, from its secret): the server lets it publish
   * and subscribe only where its role needs (`npm run nats:auth`). Unset: an anonymous connection,
   * which only a server without authorization accepts (development), with a warning at start.
   */
  NATS_NKEY_SEED: z
    .string()
    .regex(/^SU[A-Z2-7]{56}$/, 'must be a NATS user nkey seed (SU followed by 56 base32 characters)')
    .optional(),
  /** With `tls://` (or any NATS_TLS_* file) the connection must be TLS (the production overlay's). */
  NATS_TLS_CA_FILE: z.string().optional(),
  /** A client certificate and its key, for a server that verifies its clients' certificates. */
  NATS_TLS_CERT_FILE: z.string().optional(),
  NATS_TLS_KEY_FILE: z.string().optional(),
  /** `rediss://` for TLS; with AUTH, REDIS_PASSWORD (the production overlay has both). */
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  REDIS_PASSWORD: z.string().optional(),
  /** The CA that signed the Redis server's certificate, when not a public one. */
  REDIS_TLS_CA_FILE: z.string().optional(),
  /** The most a Redis command may take before it fails (and the caller falls back or answers 503). */
  REDIS_COMMAND_TIMEOUT_MS: integer(2000),
  /**
   * The server of every database not given its own `<SERVICE>_DATABASE_URL`; with no user in it, each
   * service connects as its own role with the development password (database-urls.ts).
   */
  DATABASE_URL_BASE: z.string().default(DEVELOPMENT_DATABASE_SERVER),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Required, with no default: a production process that lost its setting must not fall back to
   * development's behaviours (the development signing key, codes in the log, loopback partner URLs,
   * a non-Secure cookie, metrics on the public port). `make up`, the tests, compose and k8s set it.
   */
  APP_MODE: z.enum(['development', 'production'], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required: set APP_MODE=production (or development on a developer machine); nothing starts without it'
        : 'must be production or development',
  }),
  /**
   * `1` lets a production-mode process use NATS, Redis and Postgres without TLS: the test harness's
   * servers only. Never in a deployment (`npm run deploy:check` refuses it).
   */
  INSECURE_TEST_TRANSPORT: z.enum(['1']).optional(),
  REQUEST_TIMEOUT_MS: integer(5000),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** What a process that owns a database adds: where it is, and how long anyone may wait on it. */
export const databaseConfigSchema = baseConfigSchema.extend({
  /** A statement running longer is cancelled by Postgres (57014), answered as 504 SERVICE_TIMEOUT. */
  DB_STATEMENT_TIMEOUT_MS: integer(5000),
  /** A request waiting longer for a pooled connection is answered 503 SERVICE_UNAVAILABLE. */
  DB_ACQUIRE_TIMEOUT_MS: integer(2000),
  DB_POOL_MAX: integer(10, { max: 500 }),
  /**
   * Postgres ends a session left idle inside a transaction longer (a stuck or paused replica), so
   * the row locks it holds cannot stall every other replica for ever.
   */
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: integer(60_000),
  /**
   * A service with an outbox deletes rows published longer ago. A restore sends again the events of
   * the 24 hours before its backup (`db:restore --replay-hours`), so never less than that.
   */
  OUTBOX_RETENTION_HOURS: integer(48, { min: 24 }),
});

export type DatabaseConfig = z.infer<typeof databaseConfigSchema> & ServiceDatabase;

/** The service's name, its database as its own role, and the migration role's URL when it migrates at start. */
export interface ServiceDatabase {
  service: string;
  databaseUrl: string;
  /** `<SERVICE>_DATABASE_URL` was set (production requires it): not derived from DATABASE_URL_BASE. */
  ownDatabaseUrl: boolean;
  migrationUrl?: string;
}

function problems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

/**
 * Parses the environment once at start. A bad value stops the process with a message naming the
 * variable, instead of failing later somewhere far from the cause.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid configuration: ${problems(parsed.error)}`);
  return parsed.data;
}

/**
 * A service's configuration: `schema` (an extension of `databaseConfigSchema`) parsed once, with
 * the service's name and its database's URL.
 */
export function loadServiceConfig<S extends typeof databaseConfigSchema>(
  service: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> & ServiceDatabase {
  return {
    ...loadConfig(schema, env),
    service,
    databaseUrl: databaseUrlFor(service, env),
    ownDatabaseUrl: Boolean(env[`${service.toUpperCase()}_DATABASE_URL`]),
    migrationUrl: startMigrationUrlFor(service, env),
  };
}

/**
 * A service's configuration loader: its own `fields` beside the database ones (`loadServiceConfig`),
 * so that each service's config.ts lists only what is its own.
 */
export function serviceConfig<F extends z.ZodRawShape>(service: string, fields: F) {
  const schema = databaseConfigSchema.extend(fields);
  return (env: NodeJS.ProcessEnv = process.env) => loadServiceConfig(service, schema, env);
}
