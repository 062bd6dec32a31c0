/**
 * `make bench` scenario `transfers`: partner → user transfers through the gateway from 64
 * concurrent clients, beside pgbench's tpcb-like run on the same Postgres in the same command.
 * The wallet and the gateway run as child processes (as deployed: each its own event loop), the
 * load generator, identity and onboarding in this process. The wallet is measured twice: as a
 * naive ledger would run (one transaction per transfer, one partner row) and as configured by
 * default (partner account in 8 shards, concurrent transfers batched into one transaction), and
 * by default again with an issuance limit set (never reached): the cost of the limit's check, whose
 * treasury row lock makes a limited partner's batches run one at a time.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { databaseUrlFor } from '@coin/config';
import { dropDatabase, ensureDatabase } from '@coin/db';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { apiClient, isolatedDatabases, spawnGateway, spawnService, startStack } from '@coin/testing';
import { verifyLedger } from '@coin/wallet';
import pg from 'pg';
import { registerAndLogin } from '../e2e/support/partners.ts';
import { closedLoop, type LoadFigures } from './load.ts';
import type { Scenario } from './scenarios.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = 64;
const USERS = 1000;
const WARM_UP_SECONDS = 3;

const CONFIGS: { label: string; env: Record<string, string>; issuanceLimit?: number }[] = [
  {
    label: 'naive: 1 partner row, 1 transaction per transfer',
    env: {
      WALLET_PARTNER_SHARDS: '1',
      WALLET_BATCH_MAX: '1',
      WALLET_BATCH_CONCURRENCY: '16',
      DB_POOL_MAX: '20',
    },
  },
  { label: 'default: 8 partner shards, batched transactions', env: {} },
  {
    label: 'default, the partner with an issuance limit (never reached)',
    env: {},
    issuanceLimit: 1e12,
  },
];

/** CPU seconds (user + system) of processes, from /proc. */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

function pidsNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** pgbench tpcb-like, scale 10, 16 clients, in a database of its own, dropped after. */
export async function runPgbench(seconds: number): Promise<number> {
  const url = new URL(databaseUrlFor('bench', process.env));
  url.pathname = `/coin_bench_pgbench_${randomUUID().slice(0, 8)}`;
  await ensureDatabase(url.toString());
  try {
    execFileSync('pgbench', ['-i', '-s', '10', '-q', '-d', url.toString()], { stdio: 'ignore' });
    const out = execFileSync(
      'pgbench',
      ['-c', '16', '-j', '2', '-T', String(seconds), '-d', url.toString()],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const tps = /tps = ([\d.]+)/.exec(out);
    if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
    return Number(tps[1]);
  } finally {
    await dropDatabase(url.toString());
  }
}

/** `CLIENTS` concurrent clients sending keyed partner → user transfers for `seconds`. */
function load(url: string, token: string, users: string[], seconds: number): Promise<LoadFigures> {
  return closedLoop(url, CLIENTS, seconds, () => ({
    method: 'POST',
    path: '/api/v1/laas/coins/transfer-to-user-wallet',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ userId: users[Math.floor(Math.random() * users.length)], coins: 1.5 }),
  }));
}

/**
 * How far the hash-chain sealer runs behind the ledger during a load: the most committed entries
 * waiting to be sealed, and how long after the load they were all sealed.
 */
function sealLag(url: string) {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  let maxUnsealed = 0;
  const count = async () =>
    Number((await client.query('SELECT count(*)::int AS n FROM ledger_unsealed')).rows[0].n);
  const timer = setInterval(async () => {
    await connected;
    maxUnsealed = Math.max(maxUnsealed, await count());
  }, 250);
  return {
    async stop() {
      clearInterval(timer);
      await connected;
      const stopped = Date.now();
      // A sealer that cannot keep up is reported, not waited for.
      while ((await count()) > 0 && Date.now() - stopped < 60_000)
        await new Promise((r) => setTimeout(r, 20));
      const drainedMs = (await count()) > 0 ? Number.NaN : Date.now() - stopped;
      await client.end();
      return { maxUnsealed, drainedMs };
    },
  };
}

export async function onboard(url: string, token: string): Promise<string[]> {
  const api = apiClient(url);
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
  return users.map((u) => u.userId);
}

async function run(): Promise<void> {
  const pgbenchTps = await runPgbench(SECONDS);
  const stack = await startStack({
    services: { identity: startIdentity, onboarding: startOnboarding },
    env: { LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_MAX: '1000' },
  });
  const walletDb = isolatedDatabases(['wallet']);
  const env = { ...stack.env, ...walletDb.env };
  let wallet = await spawnService('wallet', env);
  const gateway = await spawnGateway(env, ['identity', 'onboarding', 'wallet']);
  try {
    const api = apiClient(gateway.url);
    const token = (await registerAndLogin(api)).accessToken;
    const users = await onboard(gateway.url, token);

    const rows: {
      label: string;
      r: LoadFigures;
      cpu: Record<string, number>;
      seal: { maxUnsealed: number; drainedMs: number };
    }[] = [];
    for (const config of CONFIGS) {
      await wallet.stop();
      wallet = await spawnService('wallet', { ...env, ...config.env });
      if (config.issuanceLimit !== undefined) {
        const res = await api.put(
          '/api/v1/laas/coins/treasury',
          { issuanceLimit: config.issuanceLimit },
          { token },
        );
        if (res.status !== 200) throw new Error(`treasury answered ${res.status}`);
      }
      await load(gateway.url, token, users, WARM_UP_SECONDS);
      const processes = {
        wallet: [wallet.child.pid!],
        gateway: [gateway.child.pid!],
        postgres: pidsNamed('postgres'),
        nats: pidsNamed('nats-server'),
      };
      const before = Object.fromEntries(Object.entries(processes).map(([k, p]) => [k, cpuSeconds(p)]));
      const selfBefore = process.cpuUsage();
      const lag = sealLag(walletDb.env.WALLET_DATABASE_URL!);
      const r = await load(gateway.url, token, users, SECONDS);
      const self = process.cpuUsage(selfBefore);
      const seal = await lag.stop();
      const cpu: Record<string, number> = {};
      for (const [k, p] of Object.entries(processes)) cpu[k] = (cpuSeconds(p) - before[k]) / r.seconds;
      cpu['load generator + identity + onboarding'] = (self.user + self.system) / 1e6 / r.seconds;
      rows.push({ label: config.label, r, cpu, seal });
    }

    const client = new pg.Client({ connectionString: walletDb.env.WALLET_DATABASE_URL });
    await client.connect();
    const report = await verifyLedger(client);
    const [{ pending }] = (
      await client.query('SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL')
    ).rows;
    await client.end();

    console.log(
      `machine: ${(await import('node:os')).cpus().length} cores shared by the load generator, gateway,`,
    );
    console.log('         wallet, identity, onboarding, NATS and Postgres (synchronous_commit on)');
    console.log(`pgbench tpcb-like, scale 10, 16 clients, ${SECONDS} s:   ${pgbenchTps.toFixed(0)} tps`);
    for (const { label, r, cpu, seal } of rows) {
      const tps = r.rate;
      console.log(`\ntransfers, ${CLIENTS} clients, ${SECONDS} s, ${label}`);
      console.log(
        `  ${tps.toFixed(0)} transfers/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   errors ${r.errors}`,
      );
      console.log(
        `  ratio to pgbench: ${(tps / pgbenchTps).toFixed(2)} (target ≥ 1.0, p99 < 50 ms, 0 errors)`,
      );
      console.log(
        `  hash-chain seal behind the ledger: at most ${seal.maxUnsealed} entries (sampled every 250 ms); ` +
          `sealed up ${seal.drainedMs} ms after the load stopped`,
      );
      console.log(
        `  CPU (cores busy): ${Object.entries(cpu)
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')}`,
      );
    }
    console.log(
      `\nledger after the runs: ${report.entries} entries, ${report.violations.length} violations, ` +
        `${pending} outbox rows unpublished`,
    );
  } finally {
    await wallet.stop();
    await gateway.stop();
    await stack.stop();
    await walletDb.drop();
  }
}

export const transfersScenario: Scenario = {
  name: 'transfers',
  description: `partner → user transfers through the gateway, ${CLIENTS} clients, beside pgbench tpcb-like`,
  run,
};
