/**
 * `npm run db:restore -- <backup directory> [--replay-hours 24] [--leaderboard-keys 'lb:v1:*']`
 * (`--latest <root>`: the newest complete backup a schedule made in root):
 * restores every service database of a backup into new, empty databases, as their migration role
 * (`<SERVICE>_MIGRATION_DATABASE_URL`, or `coin_migrate` on `DATABASE_URL_BASE`'s server; create the
 * databases and roles first with `npm run db:roles`; a database that holds tables is refused),
 * then makes the rest agree with them: events published but applied by no restored consumer are queued
 * again in their outbox, the JetStream event stream is deleted (the services rebuild it from the
 * outboxes), and the leaderboard's Redis index is cleared (rebuilt from Postgres). Start the services
 * afterwards, once `npm run migrate` has brought a backup of an older release up to date.
 */
import { parseArgs } from 'node:util';
import { type BaseConfig, baseConfigSchema, loadConfig, migrationUrlFor } from '@coin/config';
import { ensureDatabase } from '@coin/db';
import { runCommand } from '@coin/startup';
import pg from 'pg';
import { backupsIn, readManifest } from './manifest.ts';
import { BACKUP_ORDER } from './order.ts';
import { pgRestore } from './pg-tools.ts';
import { requeueUnappliedEvents } from './requeue-events.ts';
import { clearLeaderboardIndex, deleteEventStream } from './reset-derived.ts';

async function isEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    if ((err as { code?: string }).code === '3D000') return true; // no such database yet
    throw err;
  }
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

async function restore(config: BaseConfig): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'replay-hours': { type: 'string', default: '24' },
      'leaderboard-keys': { type: 'string', default: 'lb:v1:*' },
      latest: { type: 'string' },
    },
  });
  const dir = values.latest ? (await backupsIn(values.latest))[0]?.dir : positionals[0];
  if (values.latest && !dir) throw new Error(`${values.latest}: no complete backup`);
  if (!dir) throw new Error('name the backup directory (or --latest <root>)');
  if (values.latest) console.log(`restoring ${dir}, the newest complete backup in ${values.latest}`);
  const manifest = await readManifest(dir);
  const dumps = BACKUP_ORDER.map((service) => {
    const dump = manifest.databases.find((d) => d.service === service);
    if (!dump) throw new Error(`${dir}: the backup has no ${service} database`);
    return dump;
  });
  const urls = Object.fromEntries(BACKUP_ORDER.map((s) => [s, migrationUrlFor(s)]));
  for (const [service, url] of Object.entries(urls))
    if (!(await isEmpty(url))) throw new Error(`${service}: ${new URL(url).pathname.slice(1)} is not empty`);

  for (const dump of dumps) {
    const began = Date.now();
    await ensureDatabase(urls[dump.service]);
    await pgRestore(urls[dump.service], `${dir}/${dump.file}`);
    console.log(
      `${dump.service}: restored ${dump.bytes} bytes (dumped ${dump.startedAt}) in ${Date.now() - began} ms`,
    );
  }

  const since = new Date(Date.parse(manifest.startedAt) - Number(values['replay-hours']) * 3600_000);
  const events = await requeueUnappliedEvents(urls, since);
  for (const service of Object.keys(events.pending))
    console.log(
      `${service} outbox: ${events.pending[service]} unpublished in the backup, ${events.requeued[service]} published but applied by no consumer: queued again`,
    );
  console.log(`events already applied by a restored consumer, not sent again: ${events.alreadyApplied}`);

  // Kept, the stream would drop the re-queued events as duplicates of their ids (its duplicate window)
  // and its consumers would resume past them: it is always rebuilt.
  const deleted = await deleteEventStream(config);
  console.log(
    deleted ? 'event stream deleted: the services rebuild it from the outboxes' : 'no event stream to delete',
  );
  const keys = await clearLeaderboardIndex(config, values['leaderboard-keys']);
  console.log(`leaderboard index: ${keys} Redis keys deleted; the boards rebuild from Postgres`);
  console.log(`restore of ${dumps.length} databases done (backup started ${manifest.startedAt})`);
  return 0;
}

await runCommand('restore', loadConfig(baseConfigSchema), ({ config }) => restore(config));
