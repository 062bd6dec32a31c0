/**
 * The stack as deployed, for `make bench`: `node scripts/up.ts` (what `make up` runs: every
 * service, every consumer, default logging relayed through its stdout) in databases, a NATS
 * namespace and ports of its own, and each of its processes found by pid for /proc readings.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { freePort, isolatedDatabases } from '@coin/testing';

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
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const name = /services\/([\w-]+)\/src\/main\.ts/.exec(cmdline)?.[1];
      if (name) found[name] = Number(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

export async function startDeployedStack(extraEnv: Record<string, string> = {}): Promise<DeployedStack> {
  const dbs = isolatedDatabases(services);
  const port = await freePort();
  // up.ts gives the services consecutive metrics ports from METRICS_BASE_PORT.
  const metricsBase = 20_000 + Math.floor(Math.random() * 40_000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_NAMESPACE: `b${randomBytes(5).toString('hex')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_BASE_PORT: String(metricsBase),
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
  const processes = { 'make up (log relay)': up.pid!, ...childrenOf(up.pid!) };
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
      await dbs.drop();
    },
  };
}

/** CPU ticks (user + system, 1/100 s) of one process, from /proc; 0 once it has ended. */
export function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Peak resident set (VmHWM) of one process in MiB, from /proc. */
export function peakRssMiB(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
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
