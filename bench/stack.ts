/**
 * `make bench` scenario `stack`: the whole stack exactly as `make up` starts it (bench/deployed.ts),
 * measured beside its baselines in the same command: pgbench tpcb-like (scale 10, 16 clients), a
 * Fastify hello-world and the gateway→NATS→leaderboard echo. Prints, per process, CPU ms per
 * request over each measured window (utime + stime from /proc/<pid>/stat) and peak RSS (VmHWM),
 * the load generator's own CPU share, and the ratios of the stack's targets (docs/testing.md,
 * "Benchmarks").
 */

import { cpus, loadavg } from 'node:os';
import { runPgbench, startHelloWorld } from './baselines.ts';
import {
  cpuMsPer,
  measured,
  partnerWithUsers,
  printProcessTable,
  startDeployedStack,
  totalCpuMsPer,
  type Window,
} from './deployed.ts';
import { freshness } from './leaderboard.ts';
import { closedLoop, type LoadFigures, quantile, tailLine, transfers } from './load.ts';
import type { Scenario } from './scenarios.ts';
import { walDuring } from './wal.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = 64;
const WARM_UP_SECONDS = 3;
const FRESHNESS_TRANSFERS = 100;

function get(url: string, path: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return () => closedLoop(url, CLIENTS, SECONDS, () => ({ method: 'GET', path, headers }));
}

const line = (r: LoadFigures) =>
  `${r.rate.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors`;

async function run(): Promise<void> {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const pgbench = await runPgbench(SECONDS);

  const hello = await startHelloWorld();
  let helloWindow: Window;
  try {
    await get(hello.url, '/')();
    helloWindow = await measured({ 'hello-world': hello.pid }, get(hello.url, '/'));
  } finally {
    await hello.stop();
  }

  const stack = await startDeployedStack();
  try {
    const { token, users } = await partnerWithUsers(stack.url);
    // The freshness probe's users get no other transfers, so a board amount that includes the
    // probe's own transfer is the only way to reach the expected total.
    const probeUsers = users.slice(0, 20);
    const loadUsers = users.slice(20);
    await transfers(stack.url, token, loadUsers, WARM_UP_SECONDS, CLIENTS);
    // The freshness probe runs during the transfer load: the target is a transfer on the board
    // within a second while the stack is busy.
    const {
      result: [transferWindow, lags],
      walBytes,
    } = await walDuring(() =>
      Promise.all([
        measured(stack.processes, () => transfers(stack.url, token, loadUsers, SECONDS, CLIENTS)),
        freshness(stack.url, token, probeUsers, FRESHNESS_TRANSFERS),
      ]),
    );

    const now = new Date();
    const boardPath =
      `/api/v1/coins/partner/ep-leaderboard?type=earner&year=${now.getUTCFullYear()}` +
      `&month=${now.getUTCMonth() + 1}&page=1&limit=10`;
    await get(stack.url, boardPath, token)();
    const echo = await measured(stack.processes, get(stack.url, '/api/v1/laas/leaderboard/ping', token));
    const board = await measured(stack.processes, get(stack.url, boardPath, token));

    const t = transferWindow.r;
    console.log(`load average at start: ${load}; ${CLIENTS} clients, ${SECONDS} s per window`);
    console.log(
      `pgbench tpcb-like, scale 10, 16 clients:   ${pgbench.tps.toFixed(0)} tps, CPU ms per transaction: ` +
        `Postgres ${pgbench.postgresMs.toFixed(3)}, pgbench ${pgbench.clientMs.toFixed(3)}`,
    );
    console.log(`fastify hello-world:                      ${line(helloWindow.r)}`);
    console.log(`transfers (whole stack):                  ${line(t)}`);
    console.log(`gateway→NATS→leaderboard echo:            ${line(echo.r)}`);
    console.log(`coin board page 1 (${users.length} users):           ${line(board.r)}`);
    console.log(
      `load generator CPU (share of one core):   hello ${helloWindow.generatorShare.toFixed(2)}, ` +
        `transfers ${transferWindow.generatorShare.toFixed(2)}, echo ${echo.generatorShare.toFixed(2)}, ` +
        `board ${board.generatorShare.toFixed(2)}`,
    );
    const maxRss = printProcessTable(stack.processes, [
      { label: 'CPU ms/transfer', w: transferWindow },
      { label: 'CPU ms/echo', w: echo },
      { label: 'CPU ms/board read', w: board },
    ]);
    console.log(
      `hello-world             ${cpuMsPer(helloWindow, 'hello-world').toFixed(3).padStart(15)} (ms per request)`,
    );
    // On a saturated machine a rate is its cores over the CPU each request costs everything.
    const transferMs = totalCpuMsPer(transferWindow);
    const pgbenchMs = pgbench.postgresMs + pgbench.clientMs;
    console.log(
      `\nCPU per request, all processes: transfer ${transferMs.toFixed(3)} ms, pgbench transaction ` +
        `${pgbenchMs.toFixed(3)} ms (${(transferMs / pgbenchMs).toFixed(1)}×); ${cpus().length} cores allow ` +
        `${((cpus().length * 1000) / transferMs).toFixed(0)} transfers/s at that cost`,
    );
    // The probe's transfers are few (100 beside some 60,000) and write the same rows as the others.
    console.log(
      `WAL per request, every database: transfer ${(walBytes / t.ok).toFixed(0)} bytes, pgbench ` +
        `transaction ${pgbench.walBytes.toFixed(0)} bytes`,
    );
    console.log(`\nratios (the stack's targets)`);
    console.log(`  transfers / pgbench tps               ${(t.rate / pgbench.tps).toFixed(2)}   (≥ 1.0)`);
    console.log(
      `  transfers p99                         ${t.p99.toFixed(1)} ms   (< 50 ms); ${tailLine(t.tail)}`,
    );
    // A closed loop's clients are each always waiting for one transfer: the mean wait is the clients
    // over the rate (Little's law), so the p99 target is also a rate the stack must reach (the mean
    // stays under the p99 unless the slowest 1 % take seconds).
    console.log(
      `    ${CLIENTS} clients at ${t.rate.toFixed(0)}/s wait ${((CLIENTS / t.rate) * 1000).toFixed(1)} ms on average; ` +
        `a mean under 50 ms, which a p99 under 50 ms implies, needs over ${(CLIENTS / 0.05).toFixed(0)}/s`,
    );
    console.log(
      `  board reads / echo                    ${(board.r.rate / echo.r.rate).toFixed(2)}   (≥ 0.8)`,
    );
    console.log(
      `  echo / hello-world                    ${(echo.r.rate / helloWindow.r.rate).toFixed(2)}   (≥ 0.5)`,
    );
    console.log(`  max peak RSS of a service             ${maxRss.toFixed(0)} MB   (≤ 150 MB)`);
    console.log(
      `  transfer visible on the board p99     ${quantile(lags, 0.99).toFixed(1)} ms over ${lags.length} transfers (≤ 1000 ms)`,
    );
  } finally {
    await stack.stop();
  }
}

export const stackScenario: Scenario = {
  name: 'stack',
  description:
    'the whole stack as make up starts it: transfers, board reads, echo, beside pgbench and hello-world',
  run,
};
