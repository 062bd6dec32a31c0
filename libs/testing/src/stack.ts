import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { awaitReplicas, connectBus, namesOf } from '@coin/bus';
import { parkedStreamName } from '@coin/events';
import type { Stoppable } from '@coin/startup';
import { asService } from '@coin/startup/runtime';
import { jetstreamManager } from '@nats-io/jetstream';
import { setUpTestBus } from './bus-set-up.ts';
import { serviceDatabases } from './databases.ts';
import { type ApiClient, apiClient } from './http.ts';
import { ensureServers } from './servers.ts';

export type Starter = (env: NodeJS.ProcessEnv) => Promise<Stoppable>;
export type GatewayStarter = (env: NodeJS.ProcessEnv) => Promise<Stoppable & { url: string }>;

export interface StackOptions {
  /** Services started in this process, by name. */
  services: Record<string, Starter>;
  gateway?: GatewayStarter;
  /** Extra environment for every process of the stack. */
  env?: Record<string, string>;
}

export interface Stack {
  env: NodeJS.ProcessEnv;
  url: string;
  api: ApiClient;
  /** Stops one service (to test what its absence looks like); `start` brings it back. */
  stopService(name: string): Promise<void>;
  startService(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts services and the gateway in-process against the real servers, each service with a fresh
 * database of its own, reached as its own role (migrated at start as the migration role), the
 * gateway on a free port. `stop` stops everything and drops the databases.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  await ensureServers();
  const names = Object.keys(opts.services);
  // A database the test names itself (an upgraded fixture, one shared by two stacks) is the test's
  // own: the service migrates it with that URL unless a migration URL is named too.
  const named = (n: string) => opts.env?.[`${n.toUpperCase()}_DATABASE_URL`];
  const dbs = await serviceDatabases(names.filter((n) => !named(n)));
  const migrationUrls = Object.fromEntries(
    names.filter(named).map((n) => [`${n.toUpperCase()}_MIGRATION_DATABASE_URL`, named(n)!]),
  );
  // The stack's own subjects, stream and consumers: stacks running side by side (and earlier runs'
  // events) never reach each other.
  const env: NodeJS.ProcessEnv = {
    NATS_NAMESPACE: `t${randomBytes(5).toString('hex')}`,
    NATS_URL: 'nats://127.0.0.1:4222',
    REDIS_URL: 'redis://127.0.0.1:6379',
    DATABASE_URL_BASE: 'postgres://postgres@127.0.0.1:5432',
    // Required by every process (no default); a test of production mode sets its own.
    APP_MODE: 'development',
    // Every request of a test comes from one address; a test of the per-client limit sets its own.
    CLIENT_RATE_LIMIT_MAX: '100000000',
    // A test of production mode runs on the local servers, which speak no TLS (libs/config).
    INSECURE_TEST_TRANSPORT: '1',
    ...process.env,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...dbs.env,
    ...migrationUrls,
    ...opts.env,
  };
  await setUpTestBus(env);
  const running = new Map<string, Stoppable>();
  const probe = await connectBus(env.NATS_URL!, 'test-stack', env.NATS_NAMESPACE!, env.NATS_NKEY_SEED);
  // A service counts as started once the server routes to it: its PING answers (its endpoints
  // subscribed before its discovery subjects, on the same connection).
  async function start(name: string): Promise<void> {
    running.set(name, await opts.services[name](env));
    if (!(await awaitReplicas(probe, name, { timeoutMs: 10_000, intervalMs: 100 }))) {
      throw new Error(`${name} started but does not answer PING`);
    }
  }
  for (const name of names) await start(name);
  let gateway: (Stoppable & { url: string }) | undefined;
  if (opts.gateway) gateway = await opts.gateway({ ...env, PORT: '0', READY_SERVICES: names.join(',') });
  const url = gateway?.url ?? '';
  return {
    env,
    url,
    api: apiClient(url),
    async stopService(name) {
      await running.get(name)?.stop();
      running.delete(name);
    },
    async startService(name) {
      if (!running.has(name)) await start(name);
    },
    async stop() {
      await gateway?.stop();
      for (const s of running.values()) await s.stop();
      await probe.close();
      await dropStream(env);
      await dbs.drop();
    },
  };
}

/** Deletes the event stream and the parked-event stream of the namespace in `env`. */
export async function dropStream(env: NodeJS.ProcessEnv): Promise<void> {
  const nc = await connectBus(
    env.NATS_URL ?? 'nats://127.0.0.1:4222',
    'test-cleanup',
    env.NATS_NAMESPACE ?? '',
    env.NATS_OPERATOR_NKEY_SEED,
  );
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
    await jsm.streams.delete(parkedStreamName(nc)).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

export interface ServiceProcess {
  child: ChildProcess;
  /** SIGKILL: the process gets no chance to clean up. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs a service's `main.ts` as a child process (for crash tests: `kill -9` and restart), and
 * waits until its own /ready answers 200 (on `METRICS_PORT`, a free port unless the environment
 * names one). Its own: a PING answered by a new instance may be another replica of the service
 * starting at the same time (chaos seed 201: a replica that then failed to start was taken as up).
 */
export async function spawnService(
  name: string,
  env: NodeJS.ProcessEnv,
  readyTimeoutMs = 30_000,
): Promise<ServiceProcess> {
  const metricsPort = env.METRICS_PORT || String(await freePort());
  const run = asService([`services/${name}/src/main.ts`], { ...env, METRICS_PORT: metricsPort });
  const child = spawn(run.command, run.args, {
    cwd: REPO_ROOT,
    env: run.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${name} exited with ${child.exitCode ?? child.signalCode} before it was ready`);
      const ready = await fetch(`http://127.0.0.1:${metricsPort}/ready`, {
        signal: AbortSignal.timeout(2000),
      }).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`${name} was not ready within ${readyTimeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    // A process that is not ready is not left behind: a supervisor trying again would start a second.
    child.kill('SIGKILL');
    throw err;
  }
  return {
    child,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Ports this process handed out. */
const handedOut = new Set<number>();

/**
 * A TCP port nothing listens on right now, on loopback, and never the same one twice in this
 * process: the kernel may give a port just closed to the next caller, so two processes started side
 * by side could be told the same port (chaos seed 1007: one replica's METRICS_PORT answered /ready
 * for its twin, which had failed on EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs the gateway as a child process on a free port (benchmarks measure it apart from the load
 * generator), and waits until its /health answers. `port` brings a restarted gateway back where its
 * clients look for it; `logs: 'pipe'` keeps its log lines on `child.stdout` for the caller to read.
 * The error of a failed start says whether it exited or was too slow.
 */
export async function spawnGateway(
  env: NodeJS.ProcessEnv,
  readyServices: readonly string[],
  port?: number,
  logs: 'ignore' | 'pipe' = 'ignore',
  readyTimeoutMs = 30_000,
): Promise<GatewayProcess> {
  port ??= await freePort();
  const run = asService(['services/gateway/src/main.ts'], {
    ...env,
    PORT: String(port),
    READY_SERVICES: readyServices.join(','),
  });
  const child = spawn(run.command, run.args, {
    cwd: REPO_ROOT,
    env: run.env,
    stdio: ['ignore', logs, 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
      const why =
        child.exitCode !== null || child.signalCode !== null
          ? `exited with ${child.exitCode ?? child.signalCode}`
          : `was not ready within ${readyTimeoutMs} ms`;
      child.kill('SIGKILL');
      throw new Error(`gateway ${why}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
