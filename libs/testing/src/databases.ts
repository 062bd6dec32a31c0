import { randomBytes } from 'node:crypto';
import { adminUrlFor, databaseUrlFor, migrationUrlFor } from '@coin/config';
import { dropDatabase, provisionDatabase } from '@coin/db';

export interface IsolatedDatabases {
  /** `<SERVICE>_DATABASE_URL` and `<SERVICE>_MIGRATION_DATABASE_URL` of each database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

function name(service: string, suffix: string): string {
  return `coin_t_${service}_${suffix}`;
}

function inDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function dropper(urls: string[]): () => Promise<void> {
  return async () => {
    await Promise.all(urls.map((url) => dropDatabase(url).catch(() => undefined)));
  };
}

/**
 * A fresh database per name for one test file, `coin_t_<name>_<random>`, reached as the server's
 * administrator (both URLs), created when first migrated and dropped after: for a library's tables,
 * or a process the test damages on purpose. A service under test runs as its own role instead
 * (`serviceDatabases`).
 */
export function isolatedDatabases(
  services: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): IsolatedDatabases {
  const suffix = randomBytes(4).toString('hex');
  const out: Record<string, string> = {};
  for (const service of services) {
    const url = inDatabase(adminUrlFor(service, env), name(service, suffix));
    out[`${service.toUpperCase()}_DATABASE_URL`] = url;
    out[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`] = url;
  }
  return {
    env: out,
    drop: dropper(services.map((s) => out[`${s.toUpperCase()}_DATABASE_URL`])),
  };
}

/**
 * Sets up `database` (created if missing, or an existing one of an earlier release handed over) as a
 * deployment's are (`npm run db:roles`): owned by the migration role, used as the service's own role
 * (`coin_<service>`). Returns both URLs and the administrator's.
 */
export async function withOwnRoles(service: string, database: string, env: NodeJS.ProcessEnv = process.env) {
  // The roles' URLs derive from the server alone (no user: each service's own role).
  const server = new URL(env.DATABASE_URL_BASE ?? 'postgres://127.0.0.1:5432');
  server.username = '';
  server.password = '';
  const roles = { DATABASE_URL_BASE: server.toString() };
  const url = inDatabase(databaseUrlFor(service, roles), database);
  const migrationUrl = inDatabase(migrationUrlFor(service, roles), database);
  const adminUrl = adminUrlFor(service, env);
  await provisionDatabase({ adminUrl, url, migrationUrl });
  return { url, migrationUrl, adminUrl: inDatabase(adminUrl, database) };
}

/**
 * A fresh database per service (`withOwnRoles`), which the service migrates at start as the migration
 * role and uses as its own, so tests run with the privileges production has. Dropped by `drop`.
 */
export async function serviceDatabases(
  services: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<IsolatedDatabases> {
  const suffix = randomBytes(4).toString('hex');
  const out: Record<string, string> = {};
  const admins: string[] = [];
  for (const service of services) {
    const { url, migrationUrl, adminUrl } = await withOwnRoles(service, name(service, suffix), env);
    out[`${service.toUpperCase()}_DATABASE_URL`] = url;
    out[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`] = migrationUrl;
    admins.push(adminUrl);
  }
  return { env: out, drop: dropper(admins) };
}
