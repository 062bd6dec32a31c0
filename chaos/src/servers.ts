import { type ChildProcess, execSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, reachable } from '@coin/testing';
import pg from 'pg';
import { type HaServers, haServers } from './ha/servers-ha.ts';
import type { ChaosOptions, ServerCommands, ServerName } from './options.ts';

/** Where the run's Postgres, NATS and Redis answer, and how one of them is restarted. */
export interface Servers {
  env: { DATABASE_URL_BASE: string; NATS_URL: string; REDIS_URL: string; EVENTS_STREAM_REPLICAS?: string };
  /**
   * Stops the server's own process by its pid (nothing else of the machine), keeps it down for
   * `downMs`, starts it again and waits until it accepts connections.
   */
  restart(name: ServerName, downMs: number): Promise<void>;
  close(): Promise<void>;
  /** TOPOLOGY=ha: the Postgres pair and the NATS cluster, for the failover faults. */
  ha?: HaServers;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopPid(pid: number, signal: NodeJS.Signals): Promise<void> {
  process.kill(pid, signal);
  while (alive(pid)) await sleep(50);
}

/** Waits until Postgres answers a query (it accepts connections before recovery ends). */
async function postgresAnswers(url: string): Promise<void> {
  for (;;) {
    const client = new pg.Client({ connectionString: `${url}/postgres`, connectionTimeoutMillis: 2000 });
    const ok = await client.connect().then(
      () => client.query('SELECT 1').then(() => true),
      () => false,
    );
    await client.end().catch(() => undefined);
    if (ok) return;
    await sleep(200);
  }
}

export async function accepting(name: ServerName, url: string): Promise<void> {
  if (name === 'postgres') return postgresAnswers(url);
  const port = name === 'nats' ? 4222 : 6379;
  while (!(await reachable(url, port))) await sleep(200);
}

/** One private server process: the same command line after every restart, its log in its directory. */
export class PrivateProcess {
  child?: ChildProcess;
  private readonly command: string;
  private readonly args: string[];
  private readonly log: string;
  private readonly user?: { uid: number; gid: number };

  constructor(command: string, args: string[], log: string, user?: { uid: number; gid: number }) {
    this.command = command;
    this.args = args;
    this.log = log;
    this.user = user;
  }

  start(): void {
    const out = openSync(this.log, 'a');
    this.child = spawn(this.command, this.args, { stdio: ['ignore', out, out], ...this.user });
    this.child.once('error', () => undefined);
  }

  async stop(signal: NodeJS.Signals): Promise<void> {
    const pid = this.child?.pid;
    if (pid && this.child?.exitCode === null && this.child.signalCode === null) await stopPid(pid, signal);
  }
}

/** The newest installed PostgreSQL's bin directory (Debian's layout). */
export function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no /usr/lib/postgresql/<version>/bin: set CHAOS_PG_BIN');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** Postgres refuses to run as root: as root, its files and process belong to the postgres user. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = execSync('id -u postgres && id -g postgres', { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  return { uid, gid };
}

/**
 * Postgres, NATS (JetStream) and Redis of the run's own, on free ports and in a temporary directory,
 * so that restarting them disturbs nobody else on the machine. Postgres is stopped by SIGQUIT (an
 * immediate shutdown: no checkpoint, crash recovery at the next start), NATS and Redis by SIGKILL;
 * Redis keeps nothing across a restart, as the machine's is configured (`--save "" --appendonly no`).
 */
async function privateServers(opts: ChaosOptions): Promise<Servers> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-servers-'));
  // The postgres user reaches its own directory inside.
  chmodSync(dir, 0o711);
  const user = postgresUser();
  const [pgPort, natsPort, redisPort] = [await freePort(), await freePort(), await freePort()];
  const bin = opts.postgresBin ?? postgresBin();
  const pgDir = join(dir, 'pg');
  mkdirSync(pgDir);
  if (user) chownSync(pgDir, user.uid, user.gid);
  const init = spawnSync(
    `${bin}/initdb`,
    ['-D', join(pgDir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    { encoding: 'utf8', ...user },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const processes: Record<ServerName, PrivateProcess> = {
    postgres: new PrivateProcess(
      `${bin}/postgres`,
      [
        ...['-D', join(pgDir, 'data'), '-p', String(pgPort), '-k', pgDir],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=400', '-c', 'fsync=off'],
        ...['-c', 'full_page_writes=off', '-c', 'shared_buffers=64MB'],
      ],
      join(pgDir, 'postgres.log'),
      user,
    ),
    nats: new PrivateProcess(
      opts.natsServer,
      ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', join(dir, 'nats')],
      join(dir, 'nats.log'),
    ),
    redis: new PrivateProcess(
      opts.redisServer,
      [
        ...['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no'],
        ...['--dir', dir],
      ],
      join(dir, 'redis.log'),
    ),
  };
  const env = {
    DATABASE_URL_BASE: `postgres://postgres@127.0.0.1:${pgPort}`,
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  };
  const url = { postgres: env.DATABASE_URL_BASE, nats: env.NATS_URL, redis: env.REDIS_URL };
  const signal = { postgres: 'SIGQUIT', nats: 'SIGKILL', redis: 'SIGKILL' } as const;
  for (const p of Object.values(processes)) p.start();
  for (const name of ['postgres', 'nats', 'redis'] as const) await accepting(name, url[name]);
  return {
    env,
    async restart(name, downMs) {
      await processes[name].stop(signal[name]);
      await sleep(downMs);
      processes[name].start();
      await accepting(name, url[name]);
    },
    async close() {
      await processes.postgres.stop('SIGINT');
      await processes.nats.stop('SIGTERM');
      await processes.redis.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function sh(command: string): string {
  return execSync(command, { shell: '/bin/sh', encoding: 'utf8', timeout: 30_000 }).trim();
}

/**
 * The machine's own servers at their usual addresses (or the environment's), restarted with the
 * configured commands: for a machine nobody else is testing on.
 */
function machineServers(opts: ChaosOptions): Servers {
  const env = {
    DATABASE_URL_BASE: process.env.DATABASE_URL_BASE ?? 'postgres://postgres@127.0.0.1:5432',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  const url = { postgres: env.DATABASE_URL_BASE, nats: env.NATS_URL, redis: env.REDIS_URL };
  return {
    env,
    async restart(name, downMs) {
      const cmd: ServerCommands = opts.machine[name];
      const pid = Number(sh(cmd.pid));
      if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`${name}: no pid from '${cmd.pid}'`);
      await stopPid(pid, cmd.signal);
      await sleep(downMs);
      sh(cmd.start);
      await accepting(name, url[name]);
    },
    async close() {},
  };
}

/** The run's servers as CHAOS_SERVERS says: `private` (its own processes) or `machine`. */
export function startServers(opts: ChaosOptions): Promise<Servers> {
  if (opts.topology === 'ha') return haServers(opts);
  return opts.servers === 'private' ? privateServers(opts) : Promise.resolve(machineServers(opts));
}
