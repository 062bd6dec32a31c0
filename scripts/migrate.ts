/**
 * `node scripts/migrate.ts [service...]`: creates each service's database if missing and applies its
 * committed migrations, then exits; with no names, every service that has migrations. Deployments
 * run it once per release (the Kubernetes Job `migrate`) so replicas never race on DDL; the
 * services' own start-up migration is then a no-op under the same advisory lock.
 */
import { existsSync, readdirSync } from 'node:fs';
import { baseConfigSchema, databaseUrlFor, loadConfig } from '@coin/config';
import { migrateDatabase } from '@coin/db';
import { runCommand } from '@coin/startup';

await runCommand('migrate', loadConfig(baseConfigSchema), async ({ log }) => {
  const named = process.argv.slice(2);
  const services = named.length
    ? named
    : readdirSync('services').filter((s) => existsSync(`services/${s}/src/migrations/index.ts`));
  for (const service of services) {
    const module = await import(`../services/${service}/src/migrations/index.ts`);
    const migrations = module[`${service}Migrations`];
    if (!Array.isArray(migrations)) throw new Error(`services/${service}: no ${service}Migrations export`);
    await migrateDatabase({ url: databaseUrlFor(service), migrations, log });
    log.info({ database: service, migrations: migrations.length }, 'database up to date');
  }
  return 0;
});
