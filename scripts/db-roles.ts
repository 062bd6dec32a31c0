/**
 * `node scripts/db-roles.ts [service...]` (`npm run db:roles`): as an administrator
 * (`DATABASE_ADMIN_URL`, or `<SERVICE>_DATABASE_ADMIN_URL` for a database on another server), creates
 * or updates each service's database and its two roles from the service's URLs: the migration role of
 * `<SERVICE>_MIGRATION_DATABASE_URL` owns the database; the service's role of `<SERVICE>_DATABASE_URL`
 * may connect to it alone and read and write its tables, with no DDL, CREATEDB or superuser. Passwords
 * are the URLs' (sent as SCRAM verifiers). Idempotent: run it again after a password rotation.
 * `make up` runs it with the development defaults.
 */
import { adminUrlFor, baseConfigSchema, databaseUrlFor, loadConfig, migrationUrlFor } from '@coin/config';
import { provisionDatabase } from '@coin/db';
import { runCommand } from '@coin/startup';
import { databaseServices } from './database-services.ts';

await runCommand('db-roles', loadConfig(baseConfigSchema), async ({ log }) => {
  for (const service of databaseServices(process.argv.slice(2))) {
    const url = databaseUrlFor(service);
    const migrationUrl = migrationUrlFor(service);
    const result = await provisionDatabase({ adminUrl: adminUrlFor(service), url, migrationUrl });
    const { username: role, pathname } = new URL(url);
    log.info(
      { service, database: pathname.slice(1), role, owner: new URL(migrationUrl).username, ...result },
      'database and roles ready',
    );
  }
  return 0;
});
