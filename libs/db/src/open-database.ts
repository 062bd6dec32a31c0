import { AsyncLocalStorage } from 'node:async_hooks';
import { databaseConfigSchema } from '@coin/config';
import { AppError } from '@coin/errors';
import type { Logger } from '@coin/telemetry';
import { Migrator } from '@mikro-orm/migrations';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { ensureDatabase } from './create-database.ts';
import { checkDatabase } from './database-check.ts';
import { databaseFailure } from './database-errors.ts';
import { watchPool } from './pool-metrics.ts';
import { reclaimDeadConnections } from './reclaim-connections.ts';
import type { NamedMigration } from './sql-migrations.ts';

export interface OpenDatabaseOptions {
  /** The service's own role (database-urls.ts in @coin/config). */
  url: string;
  /** The migration role's URL: given, the committed migrations are applied with it first. */
  migrationUrl?: string;
  migrations: readonly NamedMigration[];
  log: Logger;
  /** Refuses a role with more power than a service needs, instead of warning. */
  production?: boolean;
  /** The owning service: the `service` label of the pool metrics and the name in its errors. */
  service?: string;
  /** The rest default to the configuration's defaults (`DB_POOL_MAX`, `DB_*_TIMEOUT_MS`). */
  poolMax?: number;
  /** Postgres cancels any statement running longer (a transaction may raise it, see allowSlowStatements). */
  statementTimeoutMs?: number;
  /** How long a caller waits for a pooled connection before it fails. */
  acquireTimeoutMs?: number;
  /** Postgres ends a session idle inside a transaction longer than this, releasing its locks. */
  idleInTransactionTimeoutMs?: number;
}

// The settings' defaults; the mode, which has none, does not matter to them.
const DEFAULTS = databaseConfigSchema.parse({ APP_MODE: 'development' });

export type Database = MikroORM;

/**
 * The handled message's database and, once a handler has asked for it, its entity manager.
 * MikroORM's `RequestContext` forks one for every message before the handler runs; most handlers
 * (a transfer, a ping) never use it, and each fork is allocations and two writes of `process.env`
 * (MikroORM's `Configuration.set`) on every message
 * (docs/decisions/2026-11-25-request-scope-forks-on-first-use.md).
 */
const scopes = new AsyncLocalStorage<{ db: Database; em?: EntityManager }>();
let forking = false;

const MIGRATION_LOCK = "hashtext('coin-migrations')";

/**
 * The TLS settings of the URL's `sslmode`, `sslrootcert`... as libpq reads them (undefined: none in the
 * URL, PGSSLMODE decides). MikroORM takes host, user and database from a URL and drops the rest, so
 * without this a `sslmode=verify-full` URL would connect in plain text.
 */
function tlsOf(url: string) {
  return parseConnectionString(url).ssl ?? undefined;
}

/**
 * Applies the committed migrations under a Postgres advisory lock, so replicas starting together
 * never race each other's DDL. Its own short-lived connection has no statement timeout: a
 * migration may rewrite a large table.
 */
export async function migrateDatabase(opts: {
  url: string;
  migrations: readonly NamedMigration[];
  log: Logger;
}): Promise<void> {
  await ensureDatabase(opts.url);
  const db = await MikroORM.init({
    clientUrl: opts.url,
    driverOptions: { ssl: tlsOf(opts.url) },
    entities: [],
    extensions: [Migrator],
    migrations: {
      migrationsList: [...opts.migrations],
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: 1 },
    discovery: { warnWhenNoEntities: false },
    debug: false,
    colors: false,
    logger: (message) => opts.log.debug({ component: 'mikro-orm' }, message),
  });
  const lock = new pg.Client({ connectionString: opts.url });
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await recordRenamed(lock, opts.migrations);
    const done = await db.migrator.up();
    if (done.length) opts.log.info({ migrations: done.map((m) => m.name) }, 'migrations applied');
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    await lock.end();
    await db.close();
  }
}

/**
 * A renamed migration is recorded under its new name wherever it ran under its former one, so it
 * does not run again. The former row stays: the migrator of a release that still lists the former
 * name (a rollback, a replica of the previous release) finds it applied.
 */
async function recordRenamed(client: pg.Client, migrations: readonly NamedMigration[]): Promise<void> {
  const renamed = migrations.filter((m) => m.formerly);
  const { rows } = await client.query("SELECT to_regclass('mikro_orm_migrations') IS NOT NULL AS found");
  if (!renamed.length || !rows[0].found) return;
  for (const m of renamed)
    await client.query(
      `INSERT INTO mikro_orm_migrations (name, executed_at)
         SELECT $1::varchar, executed_at FROM mikro_orm_migrations WHERE name = $2::varchar
            AND NOT EXISTS (SELECT 1 FROM mikro_orm_migrations WHERE name = $1::varchar)
          LIMIT 1`,
      [m.name, m.formerly],
    );
}

/**
 * The service's own database as its own role: migrated first when given the migration role's URL,
 * checked (every migration applied, no power beyond the service's job: database-check.ts), and
 * opened with bounded waits (a statement timeout and a pool-acquire timeout) and pool metrics.
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const service = opts.service ?? new URL(opts.url).pathname.slice(1);
  if (opts.migrationUrl) await migrateDatabase({ ...opts, url: opts.migrationUrl });
  await checkDatabase({ ...opts, service, production: opts.production ?? false });
  const poolMax = opts.poolMax ?? DEFAULTS.DB_POOL_MAX;
  // Assigned once init returns: MikroORM resolves the context while it builds the global manager.
  let db: Database | undefined;
  db = await MikroORM.init({
    clientUrl: opts.url,
    // `db.em` inside requestScope: the message's own fork, made on first use. Outside one it
    // is the global manager, whose entity operations MikroORM refuses (allowGlobalContext).
    context: () => {
      const scope = scopes.getStore();
      // A fork resolves the context while MikroORM builds it: that look-up gets the global manager.
      if (!db || scope?.db !== db || forking) return undefined;
      if (!scope.em) {
        forking = true;
        try {
          scope.em = db.em.fork({ useContext: true, disableContextResolution: true });
        } finally {
          forking = false;
        }
      }
      return scope.em;
    },
    // No entities: every query is SQL through boundQuery (docs/architecture.md, "Data access").
    entities: [],
    pool: { min: 0, max: poolMax },
    driverOptions: {
      ssl: tlsOf(opts.url),
      statement_timeout: opts.statementTimeoutMs ?? DEFAULTS.DB_STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: opts.acquireTimeoutMs ?? DEFAULTS.DB_ACQUIRE_TIMEOUT_MS,
      idle_in_transaction_session_timeout:
        opts.idleInTransactionTimeoutMs ?? DEFAULTS.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      onPoolCreated: (pool: pg.Pool) => {
        watchPool(service, pool, poolMax);
        reclaimDeadConnections(pool);
      },
    },
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    colors: false,
    logger: (message) => opts.log.debug({ component: 'mikro-orm' }, message),
  });
  return db;
}

/**
 * Wraps a handler so that `db.em` in it is an entity manager of its own (one per handled
 * message, forked when first used), and so a database wait that ran out answers 503/504 instead
 * of 500.
 */
export function requestScope(db: Database, service: string) {
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await scopes.run({ db }, fn);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw databaseFailure(err, service) ?? err;
    }
  };
}
