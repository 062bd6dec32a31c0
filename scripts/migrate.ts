/**
 * `node scripts/migrate.ts [service...]` (`npm run migrate`): applies each service's committed
 * migrations as the migration role (`<SERVICE>_MIGRATION_DATABASE_URL`, by default `coin_migrate` on
 * `DATABASE_URL_BASE`'s server), then exits; with no names, every service that has migrations.
 * Deployments run it once per release (the Kubernetes Job `migrate`, compose's `migrate`), `make up`
 * before it starts the services: a service's own role may not change its schema.
 */
import { baseConfigSchema, loadConfig, migrationUrlFor } from '@coin/config';
import { migrateDatabase } from '@coin/db';
import { runCommand } from '@coin/startup';
import { databaseServices, serviceMigrations } from './database-services.ts';

await runCommand('migrate', loadConfig(baseConfigSchema), async ({ log }) => {
  for (const service of databaseServices(process.argv.slice(2))) {
    const migrations = await serviceMigrations(service);
    await migrateDatabase({ url: migrationUrlFor(service), migrations, log });
    log.info({ database: service, migrations: migrations.length }, 'database up to date');
  }
  return 0;
});
