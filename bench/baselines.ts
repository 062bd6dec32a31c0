/**
 * The baselines a scenario measures beside its subject, in the same command on the same machine:
 * pgbench tpcb-like and a Fastify hello-world.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { databaseUrlFor } from '@coin/config';
import { dropDatabase, ensureDatabase } from '@coin/db';
import { procStat, serverTicks } from './servers.ts';
import { walDuring } from './wal.ts';

export interface PgbenchFigures {
  tps: number;
  /** CPU ms per transaction: Postgres's, and the pgbench client's. */
  postgresMs: number;
  clientMs: number;
  /** Bytes of WAL per transaction. */
  walBytes: number;
}

/** CPU ticks of this process's children that ended (pgbench, once execFileSync returns). */
const endedChildTicks = () => procStat('self')?.endedChildTicks ?? 0;

const postgresTicks = () =>
  Object.entries(serverTicks())
    .filter(([group]) => group.startsWith('postgres'))
    .reduce((sum, [, ticks]) => sum + ticks, 0);

/**
 * pgbench tpcb-like, scale 10, 16 clients, in a database of its own, dropped after; with the CPU
 * it costs per transaction, the figure a transfer's CPU is compared with.
 */
export async function runPgbench(seconds: number): Promise<PgbenchFigures> {
  const url = new URL(databaseUrlFor('bench', process.env));
  url.pathname = `/coin_bench_pgbench_${randomUUID().slice(0, 8)}`;
  await ensureDatabase(url.toString());
  try {
    execFileSync('pgbench', ['-i', '-s', '10', '-q', '-d', url.toString()], { stdio: 'ignore' });
    const before = { postgres: postgresTicks(), client: endedChildTicks() };
    const { result: out, walBytes } = await walDuring(async () =>
      execFileSync('pgbench', ['-c', '16', '-j', '2', '-T', String(seconds), '-d', url.toString()], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    const tps = /tps = ([\d.]+)/.exec(out);
    if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
    const transactions = Number(
      /number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? Number.NaN,
    );
    return {
      tps: Number(tps[1]),
      postgresMs: ((postgresTicks() - before.postgres) * 10) / transactions,
      clientMs: ((endedChildTicks() - before.client) * 10) / transactions,
      walBytes: walBytes / transactions,
    };
  } finally {
    await dropDatabase(url.toString());
  }
}

/**
 * A Fastify hello-world in a process of its own (the ceiling of any route on this machine): the
 * gateway's Fastify, no plugins, one route answering {"hello":"world"}.
 */
export async function startHelloWorld(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const script = `
    import Fastify from 'fastify';
    const app = Fastify({ logger: false });
    app.get('/', async () => ({ hello: 'world' }));
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    console.log(address);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: 'services/gateway',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`hello-world exited (${code})`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
