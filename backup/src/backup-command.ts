/**
 * `npm run db:backup -- <directory>`: dumps every service database (pg_dump, custom format) into the
 * directory, in BACKUP_ORDER, with a manifest; prints each dump. `-- --into <root> [--keep <n>]`, as
 * the schedule runs it (k8s backup CronJob): into a new directory of `root` named by the time, then
 * deletes the backups past the newest `n`. Connects as each database's owner, the migration role
 * (`<SERVICE>_MIGRATION_DATABASE_URL`, or `coin_migrate` on `DATABASE_URL_BASE`'s server). Needs
 * PostgreSQL's client tools, of the
 * server's major version or newer. Exits 1 when a database cannot be dumped.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { baseConfigSchema, loadConfig, migrationUrlFor } from '@coin/config';
import { runCommand } from '@coin/startup';
import pg from 'pg';
import { type DatabaseDump, pruneBackups, writeManifest } from './manifest.ts';
import { BACKUP_ORDER, unorderedServices } from './order.ts';
import { pgDump, pgDumpVersion } from './pg-tools.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT name FROM mikro_orm_migrations ORDER BY id',
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

async function backup(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { into: { type: 'string' }, keep: { type: 'string' } },
  });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = resolve(values.into ? join(values.into, stamp) : (positionals[0] ?? `backup-${stamp}`));
  const keep = values.keep === undefined ? undefined : Number(values.keep);
  if (keep !== undefined && !(Number.isSafeInteger(keep) && keep >= 1))
    throw new Error('--keep must be a whole number of backups, at least 1');
  const unordered = unorderedServices(ROOT);
  if (unordered.length) throw new Error(`not in BACKUP_ORDER (backup/src/order.ts): ${unordered.join(', ')}`);
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length) throw new Error(`${dir} is not empty: a backup goes into a new directory`);
  const startedAt = new Date().toISOString();
  const databases: DatabaseDump[] = [];
  for (const service of BACKUP_ORDER) {
    const url = migrationUrlFor(service);
    const file = `${service}.dump`;
    const began = new Date();
    const migrations = await appliedMigrations(url);
    await pgDump(url, join(dir, file));
    const finished = new Date();
    const { size } = await stat(join(dir, file));
    databases.push({
      service,
      file,
      startedAt: began.toISOString(),
      finishedAt: finished.toISOString(),
      bytes: size,
      migrations,
    });
    console.log(
      `${service}: ${size} bytes in ${finished.getTime() - began.getTime()} ms (${migrations.length} migrations)`,
    );
  }
  await writeManifest(dir, {
    format: 1,
    startedAt,
    finishedAt: new Date().toISOString(),
    pgDump: await pgDumpVersion(),
    databases,
  });
  console.log(`backup of ${databases.length} databases in ${dir}`);
  if (values.into && keep !== undefined)
    for (const removed of await pruneBackups(values.into, keep)) console.log(`removed ${removed}`);
  return 0;
}

await runCommand('backup', loadConfig(baseConfigSchema), backup);
