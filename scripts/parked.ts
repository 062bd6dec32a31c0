/**
 * `npm run parked`: the operator's one command for work given up after its retries
 * (docs/operating/events-and-parked-work.md):
 *   npm run parked -- jobs <service> list [queue]                    a service's parked jobs and outbox rows
 *   npm run parked -- jobs <service> replay <queue> (<id>… | --all)  due again now
 *   npm run parked -- events list [--durable <name>]                 events parked by consumers
 *   npm run parked -- events replay (<seq>… | --durable <name> --all)
 * Jobs live in each service's database, so `jobs` runs that service's own tool (its queues, its
 * configuration); events live in JetStream's PARKED stream, shared by every consumer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `usage: npm run parked -- jobs <service> list [queue] | jobs <service> replay <queue> (<id>... | --all)
       npm run parked -- events list [--durable <name>] | events replay (<seq>... | --durable <name> --all)`;

function tool(kind: string | undefined, service: string | undefined): [string, number] | undefined {
  if (kind === 'events') return [`${root}libs/events/src/parked-command.ts`, 1];
  const path = `${root}services/${service}/src/tools/parked.ts`;
  if (kind === 'jobs' && service && /^[a-z]+$/.test(service) && existsSync(path)) return [path, 2];
  return undefined;
}

const [kind, service] = process.argv.slice(2);
const found = tool(kind, service);
if (!found) {
  console.error(USAGE);
  process.exit(2);
}
const [script, skip] = found;
const run = spawnSync(process.execPath, [script, ...process.argv.slice(2 + skip)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
