import type { Database } from '@coin/db';
import { listParked, replayParked } from './parked.ts';
import type { JobQueue } from './queue.ts';

const USAGE = `usage: npm run parked -- jobs <service> list [queue]
       npm run parked -- jobs <service> replay <queue> (<id>... | --all)`;

/**
 * The operator's command for a service's parked work (its job queues and its outbox): `list` prints
 * each parked job with its error, `replay` makes the given ones (or all) due again. Returns the
 * exit code.
 */
export async function runParkedCommand(
  db: Database,
  queues: readonly JobQueue[],
  argv: readonly string[],
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const [command, name, ...rest] = argv;
  const named = queues.find((q) => q.name === name);
  const names = queues.map((q) => q.name).join(', ');
  if (command === 'list' && (!name || named)) {
    for (const q of named ? [named] : queues) {
      for (const job of await listParked(db.em.fork(), q, 1000))
        out(
          JSON.stringify({
            queue: q.name,
            id: job.id,
            attempts: job.attempts,
            parkedAt: job.parked_at,
            createdAt: job.created_at,
            error: job.last_error,
          }),
        );
    }
    return 0;
  }
  if (command === 'replay' && named && rest.length > 0) {
    const ids = rest.includes('--all') ? 'all' : rest;
    const replayed = await replayParked(db.em.fork(), named, ids);
    out(
      `${replayed.length} ${named.name} job(s) replayed${replayed.length ? `: ${replayed.join(' ')}` : ''}`,
    );
    return 0;
  }
  out(`${USAGE}\nqueues: ${names}`);
  return 2;
}
