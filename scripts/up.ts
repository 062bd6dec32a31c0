/**
 * `make up`: checks the local servers; sets up each service's database, its own role and the
 * migration role (`npm run db:roles`, as the server's administrator) and applies the migrations as
 * the migration role (`npm run migrate`); sets up the bus as the operator (`npm run bus:setup`: the
 * streams and every durable consumer), starts every service (each as its own database role) and the
 * gateway, and stays in the foreground; Ctrl-C stops everything.
 */

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
// The narrow entry points: the packages' indexes load the contracts, telemetry, the ORM and the test
// harness, which this process, that only starts and watches the others, would hold for nothing
// (docs/decisions/2026-11-25-make-up-process-memory.md).
import { awaitReplicas, connectBus } from '@coin/bus/connect';
import { DEVELOPMENT_DATABASE_SERVER } from '@coin/config/database-urls';
import { asService } from '@coin/startup/runtime';
import { dockerAvailable, reachable } from '@coin/testing/servers';

// This process starts again at once, as the services start (the same launcher): from the compile
// cache, where the compiler that strips types is not loaded.
if (process.env.NODE_COMPILE_CACHE === undefined) {
  const self = asService([...process.execArgv, ...process.argv.slice(1)]);
  process.execve?.(self.command, [self.command, ...self.args], self.env);
}

const env: NodeJS.ProcessEnv = { APP_MODE: 'development', ...process.env };

const servers = [
  {
    name: 'postgres',
    url: env.DATABASE_URL_BASE ?? DEVELOPMENT_DATABASE_SERVER,
    port: 5432,
    hint: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start  (or set DATABASE_URL_BASE)',
  },
  {
    name: 'redis',
    url: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    port: 6379,
    hint: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379  (or set REDIS_URL)',
  },
  {
    name: 'nats-dev',
    url: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    port: 4222,
    hint: 'nats-server -js -a 127.0.0.1 -p 4222 &  (JetStream enabled; or set NATS_URL)',
  },
];

async function checkServers(): Promise<void> {
  let missing = [];
  for (const s of servers) if (!(await reachable(s.url, s.port))) missing.push(s);
  if (missing.length && dockerAvailable()) {
    console.log(`starting ${missing.map((s) => s.name).join(', ')} with docker compose`);
    execFileSync('docker', ['compose', 'up', '-d', '--wait', ...missing.map((s) => s.name)], {
      stdio: 'inherit',
    });
    missing = [];
    for (const s of servers) if (!(await reachable(s.url, s.port))) missing.push(s);
  }
  if (missing.length) {
    console.error(
      'make up needs these servers, which do not answer (and there is no Docker engine to start them):',
    );
    for (const s of missing) console.error(`  - ${s.name} at ${s.url}\n      start it with: ${s.hint}`);
    process.exit(1);
  }
}

await checkServers();

/**
 * The set-up step: the databases and their roles, the migrations, then the bus (streams and durable
 * consumers, which the services only use), each a command of its own.
 */
function setUp(): void {
  for (const script of ['scripts/db-roles.ts', 'scripts/migrate.ts', 'scripts/bus-setup.ts']) {
    try {
      execFileSync(process.execPath, [script], {
        env: { ...env, LOG_LEVEL: env.LOG_LEVEL ?? 'warn' },
        stdio: 'inherit',
      });
    } catch {
      console.error(`make up: ${script} failed (see above); the services were not started`);
      process.exit(1);
    }
  }
}
setUp();
const natsUrl = env.NATS_URL ?? 'nats://127.0.0.1:4222';
// Every process here shares one environment, so none has a NATS user of its own: make up is for a
// server without authorization, where anyone reaching it may call anything (docs/operating/security.md, "NATS credentials").
console.warn(
  `make up: connecting every process to NATS at ${natsUrl} WITHOUT credentials (development only; each service warns too)`,
);
const nc = await connectBus(natsUrl, 'make-up', env.NATS_NAMESPACE ?? '').catch((err: Error) => {
  console.error(
    `make up: NATS at ${natsUrl} refused an anonymous connection (${err.message}). make up needs a NATS without authorization; with credentials, run each service with its own NATS_NKEY_SEED (docs/operating/security.md, "NATS credentials") or use docker compose.`,
  );
  process.exit(1);
});

const services = readdirSync('services').filter(
  (s) => s !== 'gateway' && existsSync(`services/${s}/src/main.ts`),
);

const children: ChildProcess[] = [];
let stopping = false;

/**
 * Each service serves `/metrics` on a port of its own: 9101, 9102... in the order listed at start
 * (METRICS_BASE_PORT moves the range); the gateway's is on its main port.
 */
const metricsBasePort = Number(env.METRICS_BASE_PORT ?? 9101);
function serviceEnv(name: string): NodeJS.ProcessEnv {
  const index = services.indexOf(name);
  return {
    ...env,
    OTEL_SERVICE_NAME: name,
    ...(index >= 0 ? { METRICS_PORT: String(metricsBasePort + index) } : {}),
  };
}

/**
 * A service's stdout goes straight to this terminal: its log lines are JSON naming their `service`,
 * and re-writing each one here cost this process CPU and memory for every line. Its stderr (a crash's
 * stack, a runtime warning: no service name in it) is relayed line by line with the name in front.
 */
function run(name: string): ChildProcess {
  const service = asService([`services/${name}/src/main.ts`], serviceEnv(name));
  const child = spawn(service.command, service.args, {
    env: service.env,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let buffered = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line) process.stderr.write(`[${name}] ${line}\n`);
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[${name}] exited (${signal ?? code}); stopping everything`);
    shutdown(1);
  });
  children.push(child);
  return child;
}

function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
  ).then(() => process.exit(code));
  setTimeout(() => process.exit(code), 15_000).unref();
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

/** The gateway starts once every service answers PING, so the first call after "ready" succeeds. */
async function waitForServices(timeoutMs: number): Promise<boolean> {
  const answered = await Promise.all(services.map((s) => awaitReplicas(nc, s, { timeoutMs })));
  const waiting = services.filter((_, i) => !answered[i]);
  if (waiting.length && !stopping) {
    console.error(`no answer from ${waiting.join(', ')} after ${timeoutMs / 1000} s; see their logs above`);
  }
  return !waiting.length && !stopping;
}

async function waitForGateway(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!stopping && Date.now() < deadline) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const gatewayUrl = `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? 3000}`;
console.log(
  `starting ${services.map((s, i) => `${s} (metrics :${metricsBasePort + i}/metrics)`).join(', ')}`,
);
for (const name of services) run(name);
const servicesUp = await waitForServices(120_000);
await nc.close();
if (!servicesUp) shutdown(1);
else {
  run('gateway');
  if (await waitForGateway(gatewayUrl, 30_000)) console.log(`ready: ${gatewayUrl} (Ctrl-C stops everything)`);
  else shutdown(1);
}
