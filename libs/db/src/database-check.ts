import type { Logger } from '@coin/telemetry';
import pg from 'pg';

/** What a service's role may do beyond its job; production refuses to start with any of it. */
const POWERS = `
  SELECT r.rolname AS role,
         array_remove(ARRAY[
           CASE WHEN r.rolsuper THEN 'superuser' END,
           CASE WHEN r.rolcreatedb THEN 'CREATEDB' END,
           CASE WHEN r.rolcreaterole THEN 'CREATEROLE' END,
           CASE WHEN r.rolbypassrls THEN 'BYPASSRLS' END,
           CASE WHEN pg_get_userbyid(d.datdba) = current_user THEN 'owns the database' END,
           CASE WHEN has_schema_privilege('public', 'CREATE') THEN 'may create objects in it' END
         ], NULL) AS powers
    FROM pg_roles r, pg_database d
   WHERE r.rolname = current_user AND d.datname = current_database()`;

/** Tables the role cannot read and write, though its queries do. */
const UNUSABLE = `
  SELECT c.relname AS name FROM pg_class c
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
     AND NOT (has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
              AND ((has_table_privilege(c.oid, 'UPDATE') AND has_table_privilege(c.oid, 'DELETE'))
                   -- an append-only table (database-roles.ts) is read and appended to only
                   OR obj_description(c.oid, 'pg_class') LIKE 'append-only%'))
   ORDER BY 1`;

const HOW = 'run the migrations as the migration role (npm run migrate; the migrate job; make up)';
const ROLES = 'set up the roles with npm run db:roles (docs/operating/security.md)';

function connectProblem(err: unknown, service: string, url: string): Error {
  const { username, pathname } = new URL(url);
  const code = (err as { code?: string }).code;
  const who = `${service}: role ${decodeURIComponent(username)}`;
  const database = pathname.slice(1);
  if (code === '3D000') return new Error(`${service}: database ${database} does not exist: ${ROLES}`);
  if (code === '42501' || code === '28000' || code === '28P01')
    return new Error(`${who} may not connect to database ${database} (${(err as Error).message}): ${ROLES}`);
  return err as Error;
}

/**
 * Before a service opens its pool: its database is reachable as its role, every committed migration
 * is applied, and the role can use every table. A role with more power than its job (superuser,
 * CREATEDB, the database's owner...) is refused in production and warned about in development.
 */
export async function checkDatabase(opts: {
  url: string;
  service: string;
  migrations: readonly { name: string }[];
  production: boolean;
  log: Logger;
}): Promise<void> {
  const client = new pg.Client({ connectionString: opts.url });
  try {
    await client.connect();
  } catch (err) {
    throw connectProblem(err, opts.service, opts.url);
  }
  try {
    const applied = await client.query<{ name: string }>('SELECT name FROM mikro_orm_migrations').then(
      (r) => new Set(r.rows.map((m) => m.name)),
      (err) => {
        if ((err as { code?: string }).code === '42P01') return new Set<string>();
        throw err;
      },
    );
    const pending = opts.migrations.map((m) => m.name).filter((name) => !applied.has(name));
    if (pending.length)
      throw new Error(
        `${opts.service}: ${pending.length} migration(s) not applied (${pending.join(', ')}): ${HOW}`,
      );
    const [{ role, powers }] = (await client.query<{ role: string; powers: string[] }>(POWERS)).rows;
    if (powers.length) {
      const message = `${opts.service}: role ${role} has more power than a service needs (${powers.join(', ')})`;
      if (opts.production) throw new Error(`${message}; production refuses to start: ${ROLES}`);
      opts.log.warn(`${message}, accepted in development only: ${ROLES}`);
    }
    const unusable = (await client.query<{ name: string }>(UNUSABLE)).rows.map((r) => r.name);
    if (unusable.length)
      throw new Error(
        `${opts.service}: role ${role} cannot read and write the tables ${unusable.join(', ')}: ${ROLES}`,
      );
  } finally {
    await client.end();
  }
}
