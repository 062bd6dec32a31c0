import type { Logger } from '@coin/telemetry';
import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import pg from 'pg';
import { ensureDatabase } from './create-database.ts';

export interface OpenDatabaseOptions {
  url: string;
  entities: readonly EntitySchema[];
  migrations: readonly MigrationObject[];
  log: Logger;
  poolMax?: number;
}

export type Database = MikroORM;

/**
 * Runs the committed migrations under a Postgres advisory lock, so replicas starting together
 * never race each other's DDL.
 */
async function migrate(orm: MikroORM, url: string, log: Logger): Promise<void> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext('coin-migrations'))");
    const done = await orm.migrator.up();
    if (done.length) log.info({ migrations: done.map((m) => m.name) }, 'migrations applied');
  } finally {
    await lock.query("SELECT pg_advisory_unlock(hashtext('coin-migrations'))").catch(() => undefined);
    await lock.end();
  }
}

/** The service's own database: created if missing, migrated, and ready for use. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  await ensureDatabase(opts.url);
  const orm = await MikroORM.init({
    clientUrl: opts.url,
    entities: [...opts.entities],
    extensions: [Migrator],
    migrations: {
      migrationsList: [...opts.migrations],
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: opts.poolMax ?? 10 },
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    colors: false,
    logger: (message) => opts.log.debug({ component: 'mikro-orm' }, message),
  });
  await migrate(orm, opts.url, opts.log);
  return orm;
}

/** Wraps a handler so it runs with its own identity map (one per handled message). */
export function requestScope(orm: Database) {
  return <T>(fn: () => Promise<T>): Promise<T> => RequestContext.create(orm.em, fn);
}
