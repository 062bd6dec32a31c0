import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@coin/testing';
import pg from 'pg';
import { TcpProxy } from './tcp-proxy.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  name: 'a' | 'b';
  port: number;
  data: string;
  child?: ChildProcess;
}

export interface PairOptions {
  dir: string;
  bin: string;
  user?: { uid: number; gid: number };
  /** Synchronous replication (a commit waits for the standby's flush) or asynchronous. */
  sync: boolean;
  /** How long the operator takes to notice the primary is gone before it promotes the standby. */
  detectMs: number;
}

/** What one failover did, for the fault log and the RTO. */
export interface FailoverReport {
  killedAt: number;
  promotedAt: number;
  /** How the old primary came back as a standby: pg_rewind, or a fresh base backup. */
  rejoin: 'pg_rewind' | 'pg_basebackup';
  /** The standby's replay position behind the primary's at the kill, in bytes (when it was readable). */
  behindBytes?: number;
}

/**
 * Postgres as a primary and a streaming standby (synchronous or not), reached by the services through
 * one read-write endpoint (a proxy the harness re-points on failover, as a Kubernetes operator moves
 * its `-rw` Service), the standby streaming through a second proxy the harness can hold to keep it
 * behind. A failover kills the primary with everything it runs, promotes the standby, moves both
 * proxies and re-joins the old primary as the new standby (pg_rewind, else a base backup).
 */
export class PostgresPair {
  readonly endpoint: TcpProxy;
  /** The standby's replication connection, held to keep the standby behind on purpose. */
  readonly replication: TcpProxy;
  private primary: Node;
  private standby: Node;
  private readonly opts: PairOptions;
  private busy = false;

  private constructor(opts: PairOptions, a: Node, b: Node, endpoint: TcpProxy, replication: TcpProxy) {
    this.opts = opts;
    this.primary = a;
    this.standby = b;
    this.endpoint = endpoint;
    this.replication = replication;
  }

  static async start(opts: PairOptions): Promise<PostgresPair> {
    const [aPort, bPort, endpointPort, replicationPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const a: Node = { name: 'a', port: aPort, data: join(opts.dir, 'a') };
    const b: Node = { name: 'b', port: bPort, data: join(opts.dir, 'b') };
    const endpoint = await TcpProxy.listen(endpointPort, aPort);
    const replication = await TcpProxy.listen(replicationPort, aPort);
    const pair = new PostgresPair(opts, a, b, endpoint, replication);
    pair.run(
      'initdb',
      ['-D', a.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      'initdb failed',
    );
    // In the file, not on the command line: pg_rewind's crash recovery in single-user mode reads
    // the file and records some of these in the control file (the base backup copies the file).
    appendFileSync(join(a.data, 'postgresql.conf'), pair.settings());
    pair.launch(a);
    await pair.answering(a);
    await pair.baseBackup(b);
    pair.launch(b);
    await pair.streaming();
    return pair;
  }

  /** The URL the services use: the read-write endpoint. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.endpoint.port}`;
  }

  /** Whether a failover or a standby restart is under way (a second one waits its turn). */
  get inProgress(): boolean {
    return this.busy;
  }

  /**
   * kill -9 of the primary and everything it runs (optionally after holding the standby's
   * replication for `holdMs`, so it is behind when the primary dies), the standby promoted after the
   * operator's detection delay, the endpoint moved to it, the old primary re-joined as its standby.
   * `onKill` is called at the kill (the RTO counts from there).
   */
  async failover(holdMs: number, onKill: (at: number) => void): Promise<FailoverReport> {
    this.busy = true;
    try {
      if (holdMs > 0) {
        this.replication.hold();
        await sleep(holdMs);
      }
      const behindBytes = await this.standbyLag().catch(() => undefined);
      const old = this.primary;
      this.endpoint.point(null);
      this.kill(old);
      const killedAt = Date.now();
      onKill(killedAt);
      this.replication.point(null);
      this.replication.release();
      await sleep(this.opts.detectMs);
      this.run('pg_ctl', ['promote', '-w', '-t', '120', '-D', this.standby.data], 'pg_ctl promote failed');
      await this.writable(this.standby);
      [this.primary, this.standby] = [this.standby, old];
      this.endpoint.point(this.primary.port);
      this.replication.point(this.primary.port);
      const promotedAt = Date.now();
      const rejoin = await this.rejoin(old);
      return { killedAt, promotedAt, rejoin, behindBytes };
    } finally {
      this.busy = false;
    }
  }

  /** kill -9 of the standby, down for `downMs`, then started again (it recovers and streams on). */
  async killStandby(downMs: number): Promise<void> {
    this.busy = true;
    try {
      this.kill(this.standby);
      await sleep(downMs);
      this.launch(this.standby);
      await this.streaming();
    } finally {
      this.busy = false;
    }
  }

  async close(): Promise<void> {
    for (const node of [this.primary, this.standby]) {
      const pid = node.child?.pid;
      if (pid && node.child?.exitCode === null && node.child.signalCode === null) {
        process.kill(pid, 'SIGINT');
        while (alive(pid)) await sleep(50);
      }
    }
    await this.endpoint.close();
    await this.replication.close();
  }

  private async rejoin(old: Node): Promise<FailoverReport['rejoin']> {
    // pg_rewind reads the new timeline from the source's control file, which the promotion writes
    // only at its next checkpoint: without one it may find "no rewind required" and leave the old
    // primary unable to follow.
    await this.query(this.primary, 'CHECKPOINT');
    const source = `host=127.0.0.1 port=${this.primary.port} user=postgres dbname=postgres`;
    const rewound = spawnSync(
      `${this.opts.bin}/pg_rewind`,
      ['-D', old.data, `--source-server=${source}`, '--no-sync'],
      { encoding: 'utf8', ...this.opts.user },
    );
    if (rewound.status === 0) {
      this.writeAs(join(old.data, 'standby.signal'), '');
      this.launch(old);
      if (
        await this.streaming(30_000).then(
          () => true,
          () => false,
        )
      )
        return 'pg_rewind';
      this.kill(old);
    }
    rmSync(old.data, { recursive: true, force: true });
    await this.baseBackup(old);
    this.launch(old);
    await this.streaming();
    return 'pg_basebackup';
  }

  private async baseBackup(node: Node): Promise<void> {
    this.run(
      'pg_basebackup',
      ['-D', node.data, '-h', '127.0.0.1', '-p', String(this.primary.port), '-U', 'postgres'],
      'pg_basebackup failed',
      ['-X', 'stream', '--no-sync', '-c', 'fast'],
    );
    this.writeAs(join(node.data, 'standby.signal'), '');
  }

  /** The same settings on both nodes: the role comes from standby.signal alone. */
  private settings(): string {
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
      `synchronous_standby_names = '${this.opts.sync ? '*' : ''}'`,
      'synchronous_commit = on',
      `primary_conninfo = 'host=127.0.0.1 port=${this.replication.port} user=postgres'`,
    ];
    return `${lines.join('\n')}\n`;
  }

  private launch(node: Node): void {
    const args = [
      ...['-D', node.data, '-p', String(node.port), '-k', this.opts.dir],
      ...['-c', `cluster_name=node_${node.name}`],
    ];
    const out = openSync(join(this.opts.dir, `postgres-${node.name}.log`), 'a');
    // Its own process group, so a kill takes the postmaster and every backend at once.
    node.child = spawn(`${this.opts.bin}/postgres`, args, {
      stdio: ['ignore', out, out],
      detached: true,
      ...this.opts.user,
    });
    node.child.once('error', () => undefined);
  }

  private kill(node: Node): void {
    const pid = node.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
    // The lock file names a pid that is gone: the next start takes over the directory.
    if (existsSync(join(node.data, 'postmaster.pid'))) rmSync(join(node.data, 'postmaster.pid'));
  }

  private run(tool: string, args: string[], failure: string, extra: string[] = []): void {
    const r = spawnSync(`${this.opts.bin}/${tool}`, [...args, ...extra], {
      encoding: 'utf8',
      ...this.opts.user,
    });
    if (r.status !== 0) throw new Error(`${failure}: ${r.stderr || r.stdout}`);
  }

  private writeAs(path: string, text: string): void {
    writeFileSync(path, text);
    if (this.opts.user) chownSync(path, this.opts.user.uid, this.opts.user.gid);
  }

  private async query<T>(node: Node, sql: string): Promise<T[]> {
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

  private async answering(node: Node): Promise<void> {
    for (;;) {
      if (
        await this.query(node, 'SELECT 1').then(
          () => true,
          () => false,
        )
      )
        return;
      await sleep(200);
    }
  }

  private async writable(node: Node): Promise<void> {
    for (;;) {
      const rows = await this.query<{ r: boolean }>(node, 'SELECT pg_is_in_recovery() AS r').catch(() => []);
      if (rows[0]?.r === false) return;
      await sleep(100);
    }
  }

  /** Until the primary sees the standby streaming (and, when synchronous, as its sync standby). */
  private async streaming(timeoutMs = 120_000): Promise<void> {
    const want = this.opts.sync ? "sync_state = 'sync'" : "state = 'streaming'";
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (Date.now() > deadline)
        throw new Error(`no standby streaming within ${timeoutMs} ms (logs in ${this.opts.dir})`);
      const rows = await this.query<{ n: number }>(
        this.primary,
        `SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming' AND ${want}`,
      ).catch(() => []);
      if ((rows[0]?.n ?? 0) > 0) return;
      await sleep(200);
    }
  }

  private async standbyLag(): Promise<number | undefined> {
    const rows = await this.query<{ behind: string | null }>(
      this.primary,
      'SELECT (pg_current_wal_lsn() - replay_lsn)::text AS behind FROM pg_stat_replication LIMIT 1',
    );
    return rows[0]?.behind == null ? undefined : Number(rows[0].behind);
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
