import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** One Postgres server of the pair: its name, port and data directory, and its process once launched. */
export interface PgNode {
  name: 'a' | 'b';
  port: number;
  data: string;
  child?: ChildProcess;
}

/** Where the pair's servers live and run: their directory, the Postgres binaries, the user they run as. */
export interface PgHost {
  dir: string;
  bin: string;
  user?: { uid: number; gid: number };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same settings on both nodes: the role comes from standby.signal alone. */
export function pairSettings(sync: boolean, replicationPort: number): string {
  const lines = [
    "listen_addresses = '127.0.0.1'",
    'max_connections = 400',
    'shared_buffers = 64MB',
    // A process kill loses no page the kernel holds, so fsync off costs nothing here; pg_rewind
    // needs hint bits and full pages logged.
    'fsync = off',
    'wal_log_hints = on',
    'full_page_writes = on',
    'wal_level = replica',
    'max_wal_senders = 5',
    'wal_keep_size = 2GB',
    'hot_standby = on',
    'wal_receiver_timeout = 10s',
    'wal_sender_timeout = 10s',
    `synchronous_standby_names = '${sync ? '*' : ''}'`,
    'synchronous_commit = on',
    `primary_conninfo = 'host=127.0.0.1 port=${replicationPort} user=postgres'`,
  ];
  return `${lines.join('\n')}\n`;
}

export function launch(host: PgHost, node: PgNode): void {
  const args = [
    ...['-D', node.data, '-p', String(node.port), '-k', host.dir],
    ...['-c', `cluster_name=node_${node.name}`],
  ];
  const out = openSync(join(host.dir, `postgres-${node.name}.log`), 'a');
  // Its own process group, so a kill takes the postmaster and every backend at once.
  node.child = spawn(`${host.bin}/postgres`, args, {
    stdio: ['ignore', out, out],
    detached: true,
    ...host.user,
  });
  node.child.once('error', () => undefined);
}

export function kill(node: PgNode): void {
  const pid = node.child?.pid;
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
  // The lock file names a pid that is gone: the next start takes over the directory.
  if (existsSync(join(node.data, 'postmaster.pid'))) rmSync(join(node.data, 'postmaster.pid'));
}

/** SIGINT (a fast shutdown) to a node still running, and waits until its postmaster is gone. */
export async function stop(node: PgNode): Promise<void> {
  const pid = node.child?.pid;
  if (pid && node.child?.exitCode === null && node.child.signalCode === null) {
    process.kill(pid, 'SIGINT');
    while (alive(pid)) await sleep(50);
  }
}

/** Runs one of the Postgres tools as the server's user; throws `failure` with its output if it fails. */
export function runTool(
  host: PgHost,
  tool: string,
  args: string[],
  failure: string,
  extra: string[] = [],
): void {
  const r = spawnSync(`${host.bin}/${tool}`, [...args, ...extra], { encoding: 'utf8', ...host.user });
  if (r.status !== 0) throw new Error(`${failure}: ${r.stderr || r.stdout}`);
}

export function writeAs(host: PgHost, path: string, text: string): void {
  writeFileSync(path, text);
  if (host.user) chownSync(path, host.user.uid, host.user.gid);
}

export async function query<T>(node: PgNode, sql: string): Promise<T[]> {
  const client = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${node.port}/postgres`,
    connectionTimeoutMillis: 2000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function answering(node: PgNode): Promise<void> {
  for (;;) {
    if (
      await query(node, 'SELECT 1').then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
}

export async function writable(node: PgNode): Promise<void> {
  for (;;) {
    const rows = await query<{ r: boolean }>(node, 'SELECT pg_is_in_recovery() AS r').catch(() => []);
    if (rows[0]?.r === false) return;
    await sleep(100);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The directory a pair lives in, owned by the user Postgres runs as. */
export function pairDirectory(dir: string, user?: { uid: number; gid: number }): string {
  const path = join(dir, 'pg');
  mkdirSync(path);
  if (user) chownSync(path, user.uid, user.gid);
  return path;
}
