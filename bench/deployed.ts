/**
 * The stack as deployed, for `make bench`: `node scripts/up.ts` (what `make up` runs: every
 * service, every consumer, default logging relayed through its stdout) in databases, a NATS
 * namespace and ports of its own, and each of its processes found by pid for /proc readings.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { apiClient, dropStream, freePort, isolatedDatabases } from '@coin/testing';
import { registerAndLogin } from '../e2e/support/partners.ts';
import type { LoadFigures } from './load.ts';
import { procStat, serverGroup, serverTicks } from './servers.ts';

export interface DeployedStack {
  url: string;
  env: NodeJS.ProcessEnv;
  /** Process name → pid: `make up` itself, each service and the gateway. */
  processes: Record<string, number>;
  stop(): Promise<void>;
}

const services = readdirSync('services').filter(
  (s) => s !== 'gateway' && existsSync(`services/${s}/src/main.ts`),
);

function childrenOf(parent: number): Record<string, number> {
  const found: Record<string, number> = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (procStat(entry)?.parent !== parent) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const name = /services\/([\w-]+)\/src\/main\.ts/.exec(cmdline)?.[1];
      if (name) found[name] = Number(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

const MAKE_UP = 'make up';

export async function startDeployedStack(extraEnv: Record<string, string> = {}): Promise<DeployedStack> {
  const dbs = isolatedDatabases(services);
  const port = await freePort();
  // up.ts gives the services consecutive metrics ports from METRICS_BASE_PORT; below Linux's
  // ephemeral range (32768–60999), where a client socket of the bench may already hold one.
  const metricsBase = 20_000 + Math.floor(Math.random() * 12_000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_NAMESPACE: `b${randomBytes(5).toString('hex')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_BASE_PORT: String(metricsBase),
    // The load comes from one address: the per-client limit would measure itself.
    CLIENT_RATE_LIMIT_MAX: '100000000',
    ...dbs.env,
    ...extraEnv,
  };
  const up: ChildProcess = spawn(process.execPath, ['scripts/up.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    for (const stream of [up.stdout!, up.stderr!])
      stream.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        // Only the last lines are kept, to name the cause if the stack does not start.
        tail.push(text);
        if (tail.length > 40) tail.shift();
        if (text.includes('ready: ')) resolve();
      });
    up.once('exit', (code) =>
      reject(new Error(`make up exited (${code}) before ready:\n${tail.join('').slice(-4000)}`)),
    );
  });
  await ready;
  const processes = { [MAKE_UP]: up.pid!, ...childrenOf(up.pid!) };
  return {
    url: `http://127.0.0.1:${port}`,
    env,
    processes,
    async stop() {
      if (up.exitCode === null) {
        const exited = new Promise((r) => up.once('exit', r));
        up.kill('SIGTERM');
        await exited;
      }
      // Each run's namespace has streams of its own: left behind, they kept every run's events on
      // the NATS server's disk.
      await dropStream(env);
      await dbs.drop();
    },
  };
}

/** CPU ticks (user + system, 1/100 s) of one process, from /proc; 0 once it has ended. */
function cpuTicks(pid: number): number {
  return procStat(String(pid))?.ticks ?? 0;
}

/** Peak resident set (VmHWM) of one process in MB (10^6 bytes, the targets' unit), from /proc. */
function peakRssMB(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return (Number(kb ?? 0) * 1024) / 1e6;
  } catch {
    return 0;
  }
}

export interface Window {
  r: LoadFigures;
  /** CPU share of one core the load generator (this process) used. */
  generatorShare: number;
  /** Process name → CPU ticks used in the window. */
  ticks: Record<string, number>;
}

/** Ticks of each named process and of each server group (servers.ts), now. */
function ticksNow(processes: Record<string, number>): Record<string, number> {
  return {
    ...Object.fromEntries(Object.entries(processes).map(([k, pid]) => [k, cpuTicks(pid)])),
    ...serverTicks(),
  };
}

/** A closed loop, with the CPU of every process and server read before and after it. */
export async function measured(
  processes: Record<string, number>,
  loop: () => Promise<LoadFigures>,
): Promise<Window> {
  const before = ticksNow(processes);
  const self = process.cpuUsage();
  const r = await loop();
  const used = process.cpuUsage(self);
  const ticks: Record<string, number> = {};
  for (const [k, t] of Object.entries(ticksNow(processes))) {
    const name = serverGroup(k);
    ticks[name] = (ticks[name] ?? 0) + t - (before[k] ?? 0);
  }
  return { r, generatorShare: (used.user + used.system) / 1e6 / r.seconds, ticks };
}

/** CPU milliseconds a process used per successful request of a window. */
export function cpuMsPer(w: Window, name: string): number {
  return ((w.ticks[name] ?? 0) * 10) / Math.max(1, w.r.ok);
}

/** CPU milliseconds per successful request of everything: processes, servers, load generator. */
export function totalCpuMsPer(w: Window): number {
  const generatorMs = (w.generatorShare * w.r.seconds * 1000) / Math.max(1, w.r.ok);
  return Object.keys(w.ticks).reduce((sum, name) => sum + cpuMsPer(w, name), generatorMs);
}

/**
 * Per process of the stack, its CPU ms per request of each window (columns headed by the windows'
 * labels) and its peak RSS (VmHWM, since it started); then the servers' CPU (no RSS: Postgres's is
 * mostly shared buffers) and the total with the load generator's. Returns the largest peak of a
 * service (the make up process itself aside).
 */
export function printProcessTable(
  processes: Record<string, number>,
  windows: readonly { label: string; w: Window }[],
): number {
  const width = Math.max(14, ...windows.map((c) => c.label.length + 2));
  const row = (name: string, cells: (w: Window) => number, rss: string) =>
    console.log(
      `${name.padEnd(24)}${windows.map((c) => cells(c.w).toFixed(3).padStart(width)).join('')}${rss.padStart(15)}`,
    );
  console.log(
    `\n${'process'.padEnd(24)}${windows.map((c) => c.label.padStart(width)).join('')}    peak RSS MB`,
  );
  let maxRss = 0;
  for (const name of Object.keys(processes)) {
    const rss = peakRssMB(processes[name]);
    if (name !== MAKE_UP) maxRss = Math.max(maxRss, rss);
    row(name, (w) => cpuMsPer(w, name), rss.toFixed(0));
  }
  const servers = Object.keys(windows[0].w.ticks)
    .filter((name) => !(name in processes))
    .sort();
  for (const name of servers) row(name, (w) => cpuMsPer(w, name), '-');
  row('all, with load generator', totalCpuMsPer, '');
  return maxRss;
}

const USERS = 1000;

/** A partner registered on the stack with `USERS` users onboarded, each one readable. */
export async function partnerWithUsers(url: string): Promise<{ token: string; users: string[] }> {
  const api = apiClient(url);
  const token = (await registerAndLogin(api)).accessToken;
  const users = Array.from({ length: USERS }, (_, i) => ({
    userId: randomUUID(),
    userData: { fullname: `User ${i}`, email: `user${i}@bench.example` },
  }));
  const res = await api.post('/api/v1/laas/onboard-users', { users }, { token });
  if (res.status !== 200) throw new Error(`onboard-users answered ${res.status}`);
  for (const { userId } of users) {
    while ((await api.get(`/api/v1/laas/users/${userId}`, { token })).status !== 200)
      await new Promise((r) => setTimeout(r, 50));
  }
  return { token, users: users.map((u) => u.userId) };
}
