/**
 * `make bench` scenario `stack`: the whole stack exactly as `make up` starts it (bench/deployed.ts),
 * measured beside its baselines in the same command: pgbench tpcb-like (scale 10, 16 clients), a
 * Fastify hello-world and the gateway→NATS→leaderboard echo. Prints, per process, CPU ms per
 * transfer over the measured window (utime + stime from /proc/<pid>/stat) and peak RSS (VmHWM),
 * the load generator's own CPU share, and the ratios issue 14 names.
 */

import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { apiClient } from '@coin/testing';
import { registerAndLogin } from '../e2e/support/partners.ts';
import { cpuTicks, peakRssMiB, startDeployedStack, startHelloWorld } from './deployed.ts';
import { freshness } from './leaderboard.ts';
import { closedLoop, type LoadFigures, quantile } from './load.ts';
import type { Scenario } from './scenarios.ts';
import { onboard, runPgbench } from './transfers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = 64;
const WARM_UP_SECONDS = 3;
const FRESHNESS_TRANSFERS = 100;

interface Window {
  r: LoadFigures;
  /** CPU share of one core the load generator (this process) used. */
  generatorShare: number;
  /** Process name → CPU ticks used in the window. */
  ticks: Record<string, number>;
}

/** A closed loop, with every process's CPU read before and after it. */
async function measured(
  processes: Record<string, number>,
  loop: () => Promise<LoadFigures>,
): Promise<Window> {
  const before = Object.fromEntries(Object.entries(processes).map(([k, pid]) => [k, cpuTicks(pid)]));
  const self = process.cpuUsage();
  const r = await loop();
  const used = process.cpuUsage(self);
  const ticks = Object.fromEntries(
    Object.entries(processes).map(([k, pid]) => [k, cpuTicks(pid) - before[k]]),
  );
  return { r, generatorShare: (used.user + used.system) / 1e6 / r.seconds, ticks };
}

function get(url: string, path: string, token?: string) {
  return () =>
    closedLoop(url, CLIENTS, SECONDS, () => ({
      method: 'GET',
      path,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }));
}

const line = (r: LoadFigures) =>
  `${r.rate.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors`;

async function run(): Promise<void> {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const pgbenchTps = await runPgbench(SECONDS);

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
    const api = apiClient(stack.url);
    const token = (await registerAndLogin(api)).accessToken;
    const users = await onboard(stack.url, token);
    // The freshness probe's users get no other transfers, so a board amount that includes the
    // probe's own transfer is the only way to reach the expected total.
    const probeUsers = users.slice(0, 20);
    const loadUsers = users.slice(20);
    const transfer = (seconds: number) => () =>
      closedLoop(stack.url, CLIENTS, seconds, () => ({
        method: 'POST',
        path: '/api/v1/laas/coins/transfer-to-user-wallet',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({
          userId: loadUsers[Math.floor(Math.random() * loadUsers.length)],
          coins: 1.5,
        }),
      }));
    await transfer(WARM_UP_SECONDS)();
    // The freshness probe runs during the transfer load, as the target asks.
    const [transfers, lags] = await Promise.all([
      measured(stack.processes, transfer(SECONDS)),
      freshness(stack.url, token, probeUsers, FRESHNESS_TRANSFERS),
    ]);

    const now = new Date();
    const boardPath =
      `/api/v1/coins/partner/ep-leaderboard?type=earner&year=${now.getUTCFullYear()}` +
      `&month=${now.getUTCMonth() + 1}&page=1&limit=10`;
    await get(stack.url, boardPath, token)();
    const echo = await measured(stack.processes, get(stack.url, '/api/v1/laas/leaderboard/ping', token));
    const board = await measured(stack.processes, get(stack.url, boardPath, token));

    const t = transfers.r;
    console.log(`load average at start: ${load}; ${CLIENTS} clients, ${SECONDS} s per window`);
    console.log(`pgbench tpcb-like, scale 10, 16 clients:   ${pgbenchTps.toFixed(0)} tps`);
    console.log(`fastify hello-world:                      ${line(helloWindow.r)}`);
    console.log(`transfers (whole stack):                  ${line(t)}`);
    console.log(`gateway→NATS→leaderboard echo:            ${line(echo.r)}`);
    console.log(`coin board page 1 (${users.length} users):           ${line(board.r)}`);
    console.log(
      `load generator CPU (share of one core):   hello ${helloWindow.generatorShare.toFixed(2)}, ` +
        `transfers ${transfers.generatorShare.toFixed(2)}, echo ${echo.generatorShare.toFixed(2)}, ` +
        `board ${board.generatorShare.toFixed(2)}`,
    );
    console.log('\nprocess                 CPU ms/transfer   CPU ms/echo   CPU ms/board read   peak RSS MiB');
    let maxRss = 0;
    for (const name of Object.keys(stack.processes)) {
      const rss = peakRssMiB(stack.processes[name]);
      if (name !== 'make up (log relay)') maxRss = Math.max(maxRss, rss);
      const per = (w: Window) => ((w.ticks[name] * 10) / Math.max(1, w.r.ok)).toFixed(3);
      console.log(
        `${name.padEnd(24)}${per(transfers).padStart(15)}${per(echo).padStart(14)}` +
          `${per(board).padStart(20)}${rss.toFixed(0).padStart(15)}`,
      );
    }
    console.log(
      `hello-world             ${((helloWindow.ticks['hello-world'] * 10) / Math.max(1, helloWindow.r.ok)).toFixed(3).padStart(15)} (ms per request)`,
    );
    console.log(`\nratios (issue 14 targets)`);
    console.log(`  transfers / pgbench tps               ${(t.rate / pgbenchTps).toFixed(2)}   (≥ 1.0)`);
    console.log(`  transfers p99                         ${t.p99.toFixed(1)} ms   (< 50 ms)`);
    console.log(
      `  board reads / echo                    ${(board.r.rate / echo.r.rate).toFixed(2)}   (≥ 0.8)`,
    );
    console.log(
      `  echo / hello-world                    ${(echo.r.rate / helloWindow.r.rate).toFixed(2)}   (≥ 0.5)`,
    );
    console.log(`  max peak RSS of a service             ${maxRss.toFixed(0)} MiB   (≤ 150 MB)`);
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
