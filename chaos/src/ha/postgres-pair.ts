import { spawnSync } from 'node:child_process';
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@coin/testing';
import {
  answering,
  kill,
  launch,
  type PgHost,
  type PgNode,
  pairSettings,
  query,
  runTool,
  sleep,
  stop,
  writable,
  writeAs,
} from './postgres-node.ts';
import { TcpProxy } from './tcp-proxy.ts';

export interface PairOptions extends PgHost {
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
  private primary: PgNode;
  private standby: PgNode;
  private readonly opts: PairOptions;
  private busy = false;

  private constructor(opts: PairOptions, a: PgNode, b: PgNode, endpoint: TcpProxy, replication: TcpProxy) {
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
    const a: PgNode = { name: 'a', port: aPort, data: join(opts.dir, 'a') };
    const b: PgNode = { name: 'b', port: bPort, data: join(opts.dir, 'b') };
    const endpoint = await TcpProxy.listen(endpointPort, aPort);
    const replication = await TcpProxy.listen(replicationPort, aPort);
    const pair = new PostgresPair(opts, a, b, endpoint, replication);
    runTool(
      opts,
      'initdb',
      ['-D', a.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      'initdb failed',
    );
    // In the file, not on the command line: pg_rewind's crash recovery in single-user mode reads
    // the file and records some of these in the control file (the base backup copies the file).
    appendFileSync(join(a.data, 'postgresql.conf'), pairSettings(opts.sync, replication.port));
    launch(opts, a);
    await answering(a);
    await pair.baseBackup(b);
    launch(opts, b);
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
      kill(old);
      const killedAt = Date.now();
      onKill(killedAt);
      this.replication.point(null);
      this.replication.release();
      await sleep(this.opts.detectMs);
      runTool(
        this.opts,
        'pg_ctl',
        ['promote', '-w', '-t', '120', '-D', this.standby.data],
        'pg_ctl promote failed',
      );
      await writable(this.standby);
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
      kill(this.standby);
      await sleep(downMs);
      launch(this.opts, this.standby);
      await this.streaming();
    } finally {
      this.busy = false;
    }
  }

  async close(): Promise<void> {
    for (const node of [this.primary, this.standby]) await stop(node);
    await this.endpoint.close();
    await this.replication.close();
  }

  private async rejoin(old: PgNode): Promise<FailoverReport['rejoin']> {
    // pg_rewind reads the new timeline from the source's control file, which the promotion writes
    // only at its next checkpoint: without one it may find "no rewind required" and leave the old
    // primary unable to follow.
    await query(this.primary, 'CHECKPOINT');
    const source = `host=127.0.0.1 port=${this.primary.port} user=postgres dbname=postgres`;
    const rewound = spawnSync(
      `${this.opts.bin}/pg_rewind`,
      ['-D', old.data, `--source-server=${source}`, '--no-sync'],
      { encoding: 'utf8', ...this.opts.user },
    );
    if (rewound.status === 0) {
      writeAs(this.opts, join(old.data, 'standby.signal'), '');
      launch(this.opts, old);
      if (
        await this.streaming(30_000).then(
          () => true,
          () => false,
        )
      )
        return 'pg_rewind';
      kill(old);
    }
    rmSync(old.data, { recursive: true, force: true });
    await this.baseBackup(old);
    launch(this.opts, old);
    await this.streaming();
    return 'pg_basebackup';
  }

  private async baseBackup(node: PgNode): Promise<void> {
    runTool(
      this.opts,
      'pg_basebackup',
      ['-D', node.data, '-h', '127.0.0.1', '-p', String(this.primary.port), '-U', 'postgres'],
      'pg_basebackup failed',
      ['-X', 'stream', '--no-sync', '-c', 'fast'],
    );
    writeAs(this.opts, join(node.data, 'standby.signal'), '');
  }

  /** Until the primary sees the standby streaming (and, when synchronous, as its sync standby). */
  private async streaming(timeoutMs = 120_000): Promise<void> {
    const want = this.opts.sync ? "sync_state = 'sync'" : "state = 'streaming'";
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (Date.now() > deadline)
        throw new Error(`no standby streaming within ${timeoutMs} ms (logs in ${this.opts.dir})`);
      const rows = await query<{ n: number }>(
        this.primary,
        `SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming' AND ${want}`,
      ).catch(() => []);
      if ((rows[0]?.n ?? 0) > 0) return;
      await sleep(200);
    }
  }

  private async standbyLag(): Promise<number | undefined> {
    const rows = await query<{ behind: string | null }>(
      this.primary,
      'SELECT (pg_current_wal_lsn() - replay_lsn)::text AS behind FROM pg_stat_replication LIMIT 1',
    );
    return rows[0]?.behind == null ? undefined : Number(rows[0].behind);
  }
}
