import type { Logger } from '@coin/telemetry';
import { counter, gauge } from '@coin/telemetry';
import pg from 'pg';
import { verifyLedger } from './verify.ts';

const runs = counter({
  name: 'coin_ledger_verify_runs_total',
  help: 'Periodic ledger verifications run by this replica, by outcome (ok, violations, error)',
  labelNames: ['outcome'] as const,
});
const failures = gauge({
  name: 'coin_ledger_verify_failures',
  help: "Invariant violations found by this replica's last ledger verification",
});
const lastSuccess = gauge({
  name: 'coin_ledger_verify_last_success_timestamp_seconds',
  help: 'When this replica last verified the ledger and found no violation (0: never)',
});

/** One replica verifies at a time: the check reads every posting, so replicas take turns. */
const LOCK = "SELECT pg_try_advisory_lock(hashtext('coin-ledger-verify')) AS locked";

export interface LedgerVerification {
  /** One verification now (unless another replica holds the turn); resolves when done. */
  runOnce(): Promise<void>;
  /** Stops the schedule and waits for a verification under way. */
  stop(): Promise<void>;
}

/**
 * Verifies the ledger's invariants every `intervalMs` on a connection of its own (one snapshot,
 * outside the transfer pool), so an alert can page on a violation rather than wait for someone to
 * run `ledger:verify`. 0 turns it off.
 */
export function startLedgerVerification(opts: {
  url: string;
  log: Logger;
  intervalMs: number;
  statementTimeoutMs: number;
}): LedgerVerification {
  // Every outcome exported from the start: rate() and increase() need the series before the first change.
  for (const outcome of ['ok', 'violations', 'error']) runs.inc({ outcome }, 0);
  let running: Promise<void> = Promise.resolve();
  async function verify(): Promise<void> {
    const client = new pg.Client({ connectionString: opts.url, statement_timeout: opts.statementTimeoutMs });
    // A connection the server ends (a restart, a dropped database) fails the query under way, which
    // is reported below; without a listener its 'error' event would also end the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>(LOCK);
      if (!rows[0].locked) return;
      const report = await verifyLedger(client);
      failures.set(report.violations.length);
      if (report.violations.length === 0) {
        runs.inc({ outcome: 'ok' });
        lastSuccess.set(Date.now() / 1000);
        opts.log.debug({ entries: report.entries }, 'ledger verification passed');
      } else {
        runs.inc({ outcome: 'violations' });
        opts.log.error(
          { violations: report.violations.slice(0, 20), count: report.violations.length },
          'ledger verification found violations',
        );
      }
    } catch (err) {
      runs.inc({ outcome: 'error' });
      opts.log.warn({ err }, 'ledger verification could not run');
    } finally {
      // Ending the session releases the advisory lock.
      await client.end().catch(() => undefined);
    }
  }
  function runOnce(): Promise<void> {
    running = running.then(verify);
    return running;
  }
  const timer = opts.intervalMs > 0 ? setInterval(runOnce, opts.intervalMs) : undefined;
  timer?.unref();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
