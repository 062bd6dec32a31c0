import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  dropStream,
  freePort,
  type IsolatedDatabases,
  isolatedDatabases,
  setUpTestBus,
  spawnGateway,
  spawnService,
} from '@coin/testing';
import type { Servers } from './servers.ts';

export const SERVICES = ['identity', 'onboarding', 'rules', 'wallet', 'leaderboard', 'webhooks'] as const;
const REPLICAS = 2;
const GATEWAYS = 2;

export interface Replica {
  /** `wallet#1`, `gateway#0`. */
  id: string;
  service: string;
  child?: ChildProcess;
  state: 'starting' | 'up' | 'paused' | 'down';
  /** The gateway's port, the same after a restart. */
  port?: number;
}

/**
 * Every service as two processes on the same databases, two gateways, in a namespace and databases
 * of the run's own. A process that exits is started again by this supervisor after a delay (the
 * fault schedule's, or a second when it died by itself), as an orchestrator would.
 */
export class Cluster {
  readonly replicas: Replica[] = [];
  readonly env: NodeJS.ProcessEnv;
  /** Exits nobody caused: a process that died by itself. */
  unexpectedExits: string[] = [];
  private readonly restartDelays = new Map<Replica, number>();
  private readonly resumes = new Map<Replica, NodeJS.Timeout>();
  private readonly restarting = new Set<Promise<void>>();
  private stopping = false;

  private readonly dbs: IsolatedDatabases;

  /**
   * `startTimeoutMs` bounds one start of one process (CHAOS_START_TIMEOUT): a dozen Node processes
   * starting side by side on a loaded machine are slow, which is the harness's problem, not a fault.
   */
  private readonly startTimeoutMs: number;

  constructor(logLevel: string, servers: Servers['env'], startTimeoutMs = 180_000) {
    this.startTimeoutMs = startTimeoutMs;
    const base = { ...process.env, ...servers };
    this.dbs = isolatedDatabases(SERVICES, base);
    this.env = {
      ...base,
      ...this.dbs.env,
      NATS_NAMESPACE: `chaos${randomBytes(5).toString('hex')}`,
      LOG_LEVEL: logLevel,
      APP_MODE: 'development',
      // Partners sign up and log in by the dozen; the workload is not a credential-stuffing attack.
      AUTH_RATE_LIMIT_MAX: '100000',
      CLIENT_RATE_LIMIT_MAX: '100000000',
      // A paused replica holds its requests: callers give up soon and retry (on another replica).
      REQUEST_TIMEOUT_MS: '3000',
      RULES_CALL_TIMEOUT_MS: '3000',
      REWARD_RETRY_POLL_MS: '200',
      REWARD_RETRY_BASE_MS: '200',
      REWARD_RETRY_MAX_MS: '2000',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_MS: '2000',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_POLL_MS: '100',
      ONBOARDING_POLL_MS: '100',
      ONBOARDING_LEASE_MS: '5000',
      ONBOARDING_RETRY_BASE_MS: '200',
      ONBOARDING_RETRY_MAX_MS: '2000',
      WALLET_VERIFY_INTERVAL_MS: '0',
    };
  }

  get gatewayUrls(): string[] {
    return this.replicas.filter((r) => r.service === 'gateway').map((r) => `http://127.0.0.1:${r.port}`);
  }

  /** The first replica of each service creates and migrates its database before the second starts. */
  async start(): Promise<void> {
    // The operator's set-up first: the processes only bind to the streams and durables it creates.
    await this.setUpBus();
    for (let index = 0; index < REPLICAS; index++) {
      const wave = SERVICES.map((service) => this.add({ id: `${service}#${index}`, service, state: 'down' }));
      await Promise.all(wave.map((r) => this.firstStart(r)));
    }
    for (let index = 0; index < GATEWAYS; index++) {
      const r = this.add({
        id: `gateway#${index}`,
        service: 'gateway',
        state: 'down',
        port: await freePort(),
      });
      await this.firstStart(r);
    }
  }

  /**
   * A cluster of three NATS nodes just formed on a loaded machine may answer "JetStream system
   * temporarily unavailable" to the first stream it is asked to place: tried again until the start
   * timeout, then the run stops naming the last answer. No fault has been injected yet.
   */
  private async setUpBus(): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      try {
        return await setUpTestBus(this.env);
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`the bus set-up failed for ${this.startTimeoutMs} ms: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** `kill -9`; the supervisor starts it again `restartAfterMs` later. */
  kill(r: Replica, restartAfterMs: number): void {
    if (r.state !== 'up' || !r.child?.pid) return;
    this.restartDelays.set(r, restartAfterMs);
    r.state = 'down';
    process.kill(r.child.pid, 'SIGKILL');
  }

  /** SIGSTOP: the process keeps its connections, locks and leases, and answers nothing, until SIGCONT. */
  pause(r: Replica, forMs: number): void {
    if (r.state !== 'up' || !r.child?.pid) return;
    process.kill(r.child.pid, 'SIGSTOP');
    r.state = 'paused';
    this.resumes.set(
      r,
      setTimeout(() => this.resume(r), forMs),
    );
  }

  /** Resumes every paused process and waits until every process is up again. */
  async heal(timeoutMs = 120_000): Promise<void> {
    for (const r of this.replicas) if (r.state === 'paused') this.resume(r);
    for (const r of this.replicas) if (this.restartDelays.has(r)) this.restartDelays.set(r, 0);
    const deadline = Date.now() + timeoutMs;
    while (this.replicas.some((r) => r.state !== 'up')) {
      if (Date.now() > deadline) {
        const down = this.replicas.filter((r) => r.state !== 'up').map((r) => `${r.id} ${r.state}`);
        throw new Error(`not every process came back within ${timeoutMs} ms: ${down.join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Stops every process, then drops the run's databases and event stream. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.resumes.values()) clearTimeout(t);
    await Promise.allSettled(this.restarting);
    await Promise.all(this.replicas.map((r) => this.terminate(r)));
    await dropStream(this.env).catch(() => undefined);
    await this.dbs.drop();
  }

  private add(r: Replica): Replica {
    this.replicas.push(r);
    return r;
  }

  private resume(r: Replica): void {
    clearTimeout(this.resumes.get(r));
    this.resumes.delete(r);
    if (r.state !== 'paused' || !r.child?.pid) return;
    process.kill(r.child.pid, 'SIGCONT');
    r.state = 'up';
  }

  private async spawn(r: Replica): Promise<void> {
    r.state = 'starting';
    const child =
      r.service === 'gateway'
        ? (await spawnGateway(this.env, SERVICES, r.port, 'ignore', this.startTimeoutMs)).child
        : (await spawnService(r.service, this.env, this.startTimeoutMs)).child;
    r.child = child;
    r.state = 'up';
    child.once('exit', () => this.exited(r, child));
    if (child.exitCode !== null) this.exited(r, child);
  }

  private exited(r: Replica, child: ChildProcess): void {
    if (r.child !== child || this.stopping) return;
    if (!this.restartDelays.has(r)) {
      this.unexpectedExits.push(`${r.id} exited with ${child.exitCode ?? child.signalCode}`);
      this.restartDelays.set(r, 1000);
    }
    r.state = 'down';
    const restart = this.restart(r).finally(() => this.restarting.delete(restart));
    this.restarting.add(restart);
  }

  /**
   * A process may fail to start for a reason of the moment (a port another process took since it
   * was found free): three attempts before the run gives up, naming what each attempt met.
   */
  private async firstStart(r: Replica): Promise<void> {
    const failures: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const began = Date.now();
      try {
        return await this.spawn(r);
      } catch (err) {
        failures.push(`attempt ${attempt} after ${Date.now() - began} ms: ${(err as Error).message}`);
        if (attempt === 3) throw new Error(`${r.id} did not start: ${failures.join('; ')}`);
      }
    }
  }

  private async restart(r: Replica): Promise<void> {
    const began = Date.now();
    while (Date.now() - began < (this.restartDelays.get(r) ?? 0) && !this.stopping)
      await new Promise((resolve) => setTimeout(resolve, 100));
    this.restartDelays.delete(r);
    while (!this.stopping) {
      try {
        await this.spawn(r);
        return;
      } catch {
        // Its database or the bus may be down for a while (a server restart): try again.
        r.state = 'down';
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async terminate(r: Replica): Promise<void> {
    const child = r.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (r.state === 'paused' && child.pid) process.kill(child.pid, 'SIGCONT');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
