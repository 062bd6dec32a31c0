import { databaseConfigSchema } from '@coin/config';
import { AppError } from '@coin/errors';
import type { Logger } from '@coin/telemetry';
import type { MigrationObject } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import pg from 'pg';
import { ensureDatabase } from './create-database.ts';
import { databaseFailure } from './database-errors.ts';
import { watchPool } from './pool-metrics.ts';
import { reclaimDeadConnections } from './reclaim-connections.ts';

export interface OpenDatabaseOptions {
  url: string;
  migrations: readonly MigrationObject[];
  log: Logger;
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

const DEFAULTS = databaseConfigSchema.parse({});

export type Database = MikroORM;

const MIGRATION_LOCK = "hashtext('coin-migrations')";

/**
 * Applies the committed migrations under a Postgres advisory lock, so replicas starting together
 * never race each other's DDL. Its own short-lived connection has no statement timeout: a
 * migration may rewrite a large table.
 */
export async function migrateDatabase(opts: {
  url: string;
  migrations: readonly MigrationObject[];
  log: Logger;
}): Promise<void> {
  await ensureDatabase(opts.url);
  const orm = await MikroORM.init({
    clientUrl: opts.url,
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
    const done = await orm.migrator.up();
    if (done.length) opts.log.info({ migrations: done.map((m) => m.name) }, 'migrations applied');
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    await lock.end();
    await orm.close();
  }
}

/**
 * The service's own database: created if missing, migrated, and opened with bounded waits (a
 * statement timeout and a pool-acquire timeout) and pool metrics.
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  await migrateDatabase(opts);
  const service = opts.service ?? new URL(opts.url).pathname.slice(1);
  const poolMax = opts.poolMax ?? DEFAULTS.DB_POOL_MAX;
  const orm = await MikroORM.init({
    clientUrl: opts.url,
    // No entities: every query is SQL through boundQuery (README, Architecture).
    entities: [],
    pool: { min: 0, max: poolMax },
    driverOptions: {
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
  return orm;
}

/**
 * Wraps a handler so it runs with its own identity map (one per handled message), and so a
 * database wait that ran out answers 503/504 instead of 500.
 */
export function requestScope(orm: Database, service: string) {
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await RequestContext.create(orm.em, fn);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw databaseFailure(err, service) ?? err;
    }
  };
}
