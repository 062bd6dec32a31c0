/**
 * Where each service's database is, and as whom each process reaches it. A service connects as its
 * own role (`coin_<service>`), which may read and write its tables and nothing else; its migrations run
 * as the migration role (`coin_migrate`), which owns the database; an administrator creates both
 * (`npm run db:roles`). Each URL may name another server, so any database can move on its own.
 */

/** The server of development and tests: its roles' names and passwords are derived from this. */
export const DEVELOPMENT_DATABASE_SERVER = 'postgres://127.0.0.1:5432';

/**
 * The password of every role in development (`make up`, the tests): public, so that the same set-up
 * works on a server that asks for passwords. Production URLs come from Secrets.
 */
const DEVELOPMENT_DATABASE_PASSWORD = 'dev-only-password';

/** The role that owns every service database and applies its migrations (never a service's). */
const MIGRATION_ROLE = 'coin_migrate';

/** The role a service runs as. */
function serviceRole(service: string): string {
  return `coin_${service}`;
}

function server(env: NodeJS.ProcessEnv): URL {
  return new URL((env.DATABASE_URL_BASE ?? DEVELOPMENT_DATABASE_SERVER).replace(/\/$/, ''));
}

/**
 * `DATABASE_URL_BASE` naming a user (`postgres://postgres@host:5432`): every database reached as that
 * one user, as releases before per-service roles did. Development only: production refuses a
 * privileged or shared role at start.
 */
function sharedUser(env: NodeJS.ProcessEnv): boolean {
  return server(env).username !== '';
}

/** `base` with `role`, its development password and `database`, unless the base names a user. */
function derived(env: NodeJS.ProcessEnv, role: string, database: string): string {
  const url = server(env);
  if (!url.username) {
    url.username = role;
    url.password = DEVELOPMENT_DATABASE_PASSWORD;
  }
  url.pathname = `/${database}`;
  return url.toString();
}

/** `<SERVICE>_DATABASE_URL`, or the service's own database and role on `DATABASE_URL_BASE`'s server. */
export function databaseUrlFor(service: string, env: NodeJS.ProcessEnv = process.env): string {
  return (
    env[`${service.toUpperCase()}_DATABASE_URL`] || derived(env, serviceRole(service), `coin_${service}`)
  );
}

/**
 * `<SERVICE>_MIGRATION_DATABASE_URL`: the service's database as the migration role, for the migrate
 * job and `make up`'s set-up; by default the migration role on `DATABASE_URL_BASE`'s server.
 */
export function migrationUrlFor(service: string, env: NodeJS.ProcessEnv = process.env): string {
  return (
    env[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`] ||
    derived(env, MIGRATION_ROLE, new URL(databaseUrlFor(service, env)).pathname.slice(1))
  );
}

/**
 * The migration URL a service process is given, if any: a service migrates at start only when it
 * holds one (tests; the old shared user of `DATABASE_URL_BASE`). Deployments run the migrate job.
 */
export function startMigrationUrlFor(service: string, env: NodeJS.ProcessEnv = process.env) {
  const explicit = env[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`];
  if (explicit) return explicit;
  if (!env[`${service.toUpperCase()}_DATABASE_URL`] && sharedUser(env)) return databaseUrlFor(service, env);
  return undefined;
}

/**
 * `DATABASE_ADMIN_URL`: a role that may create roles and databases (`npm run db:roles`, the test
 * harness); by default `postgres` on `DATABASE_URL_BASE`'s server, in its `postgres` database.
 * `<SERVICE>_DATABASE_ADMIN_URL` names the administrator of a service whose database is elsewhere.
 */
export function adminUrlFor(service: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const own = service ? env[`${service.toUpperCase()}_DATABASE_ADMIN_URL`] : undefined;
  if (own || env.DATABASE_ADMIN_URL) return (own || env.DATABASE_ADMIN_URL)!;
  const url = server(env);
  if (!url.username) url.username = 'postgres';
  url.pathname = '/postgres';
  return url.toString();
}
