/**
 * `make bench` scenario `transfers`: partner → user transfers through the gateway from 64
 * concurrent clients, on the whole stack exactly as `make up` starts it (bench/deployed.ts: every
 * service and consumer), beside pgbench's tpcb-like run on the same Postgres in the same command.
 * Three windows: the stack as configured, the same stack with the partner under an issuance limit
 * (never reached: the cost of its check, whose treasury row lock makes a limited partner's batches
 * run one at a time), a second stack whose hash-chain sealer is off (`WALLET_SEAL_INTERVAL_MS=0`):
 * the sealer's cost, as throughput and as the wallet's CPU per transfer; and a third whose wallet
 * publishes no event: the event path's cost.
 */
import { cpus, loadavg } from 'node:os';
import { apiClient, withDatabase } from '@coin/testing';
import { verifyLedger } from '@coin/wallet';
import pg from 'pg';
import { runPgbench } from './baselines.ts';
import {
  cpuMsPer,
  type DeployedStack,
  measured,
  partnerWithUsers,
  printProcessTable,
  startDeployedStack,
  totalCpuMsPer,
  type Window,
} from './deployed.ts';
import { tailLine, transfers } from './load.ts';
import type { Scenario } from './scenarios.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = 64;
const WARM_UP_SECONDS = 3;

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

/**
 * What the event path costs, measured rather than run: the stack's wallet database gets a trigger
 * that discards every outbox row it writes, so no transfer publishes an event, and the relay, JetStream
 * and the leaderboard's and webhooks' consumers have nothing to do. The bench adds it to its own
 * database; nothing the services ship can turn events off.
 */
function discardWalletEvents(stack: DeployedStack): Promise<void> {
  return withDatabase(stack.env.WALLET_DATABASE_URL!, async (client) => {
    await client.query(
      'CREATE FUNCTION bench_discard_row() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$',
    );
    await client.query(
      'CREATE TRIGGER bench_discard_events BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION bench_discard_row()',
    );
  });
}

/** A warmed-up transfer window on a stack, for a partner of its own. */
async function transferWindow(stack: DeployedStack, issuanceLimit?: number): Promise<Window> {
  const { token, users } = await partnerWithUsers(stack.url);
  if (issuanceLimit !== undefined) {
    const res = await apiClient(stack.url).put('/api/v1/laas/coins/treasury', { issuanceLimit }, { token });
    if (res.status !== 200) throw new Error(`treasury answered ${res.status}`);
  }
  await transfers(stack.url, token, users, WARM_UP_SECONDS, CLIENTS);
  return measured(stack.processes, () => transfers(stack.url, token, users, SECONDS, CLIENTS));
}

const summary = (label: string, w: Window, pgbenchTps: number) =>
  `\n${label}\n  ${w.r.rate.toFixed(0)} transfers/s   p50 ${w.r.p50.toFixed(1)} ms   p99 ${w.r.p99.toFixed(1)} ms   ` +
  `errors ${w.r.errors}   ratio to pgbench ${(w.r.rate / pgbenchTps).toFixed(2)} (target ≥ 1.0, p99 < 50 ms, 0 errors)\n` +
  `  ${tailLine(w.r.tail)}`;

async function run(): Promise<void> {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const { tps: pgbenchTps } = await runPgbench(SECONDS);

  const unsealed = await startDeployedStack({ WALLET_SEAL_INTERVAL_MS: '0' });
  let sealerOff: Window;
  try {
    sealerOff = await transferWindow(unsealed);
  } finally {
    await unsealed.stop();
  }

  const silent = await startDeployedStack();
  let eventsOff: Window;
  try {
    await discardWalletEvents(silent);
    eventsOff = await transferWindow(silent);
  } finally {
    await silent.stop();
  }

  const stack = await startDeployedStack();
  try {
    const lag = sealLag(stack.env.WALLET_DATABASE_URL!);
    const configured = await transferWindow(stack);
    const seal = await lag.stop();
    const limited = await transferWindow(stack, 1e12);

    const client = new pg.Client({ connectionString: stack.env.WALLET_DATABASE_URL });
    await client.connect();
    const report = await verifyLedger(client);
    const [{ pending }] = (
      await client.query('SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL')
    ).rows;
    await client.end();

    console.log(
      `load average at start: ${load}; ${cpus().length} cores shared by the load generator, every process of ` +
        'the stack, NATS and Postgres (synchronous_commit on)',
    );
    console.log(`pgbench tpcb-like, scale 10, 16 clients, ${SECONDS} s:   ${pgbenchTps.toFixed(0)} tps`);
    console.log(
      summary(
        `transfers, ${CLIENTS} clients, ${SECONDS} s, the stack as make up starts it`,
        configured,
        pgbenchTps,
      ),
    );
    console.log(
      `  hash-chain seal behind the ledger: at most ${seal.maxUnsealed} entries (sampled every 250 ms); ` +
        `sealed up ${seal.drainedMs} ms after the load stopped`,
    );
    console.log(summary('the same, the partner with an issuance limit (never reached)', limited, pgbenchTps));
    console.log(
      summary('a second stack, its hash-chain sealer off (WALLET_SEAL_INTERVAL_MS=0)', sealerOff, pgbenchTps),
    );
    const on = cpuMsPer(configured, 'wallet');
    const off = cpuMsPer(sealerOff, 'wallet');
    console.log(
      `  the sealer's cost: throughput with it ${(configured.r.rate / sealerOff.r.rate).toFixed(2)}× without it ` +
        `(target ≥ 0.90); wallet CPU ${on.toFixed(3)} ms/transfer with it, ${off.toFixed(3)} without ` +
        `(${(((on - off) / off) * 100).toFixed(0)} %)`,
    );
    console.log(
      summary(
        "a third stack, whose wallet's outbox rows are discarded: no event published",
        eventsOff,
        pgbenchTps,
      ),
    );
    console.log(
      `  the event path's cost: throughput with it ${(configured.r.rate / eventsOff.r.rate).toFixed(2)}× without ` +
        `it; CPU ms per transfer, every process: ${totalCpuMsPer(configured).toFixed(3)} with it, ` +
        `${totalCpuMsPer(eventsOff).toFixed(3)} without`,
    );
    console.log(
      `  load generator CPU (share of one core): ${[configured, limited, sealerOff, eventsOff].map((w) => w.generatorShare.toFixed(2)).join(', ')}`,
    );
    printProcessTable(stack.processes, [
      { label: 'configured', w: configured },
      { label: 'issuance limit', w: limited },
      { label: 'sealer off', w: sealerOff },
      { label: 'events off', w: eventsOff },
    ]);
    console.log('(CPU ms per transfer of each window; peak RSS of the configured stack)');
    console.log(
      `\nledger after the runs: ${report.entries} entries, ${report.violations.length} violations, ` +
        `${pending} outbox rows unpublished`,
    );
  } finally {
    await stack.stop();
  }
}

export const transfersScenario: Scenario = {
  name: 'transfers',
  description: `partner → user transfers through the whole stack, ${CLIENTS} clients, beside pgbench tpcb-like`,
  run,
};
