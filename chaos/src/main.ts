import { emptyFaultLog } from './faults.ts';
import { chaosOptions } from './options.ts';
import { formatRecoveries, formatRun, formatTable } from './report.ts';
import { type RunResult, runOnce } from './run.ts';

/**
 * `make chaos`: RUNS seeded runs (run i with SEED + i), each on its own cluster, databases and
 * namespace; prints each run's final read and a table, and exits 1 if any check failed, naming the
 * seeds that reproduce it.
 */
const opts = chaosOptions();
console.log(
  `chaos: ${opts.runs} run(s) from seed ${opts.seed}, ${opts.durationMs / 1000} s each, faults ${opts.faults.join(',')}` +
    (opts.topology === 'ha'
      ? `, topology ha (Postgres ${opts.pgSync ? 'synchronous' : 'ASYNCHRONOUS'} standby, 3 NATS nodes)`
      : '') +
    (opts.sabotage ? `, sabotage ${opts.sabotage}` : ''),
);
const results: RunResult[] = [];
for (let i = 0; i < opts.runs; i++) {
  const seed = opts.seed + i;
  console.log(`run ${i + 1}/${opts.runs}: seed ${seed}`);
  const result = await runOnce(seed, opts).catch(
    (err: Error): RunResult => ({
      seed,
      faults: emptyFaultLog(),
      requests: { ok: 0, refused: 0, unanswered: 0, serverErrors: 0, noAnswer: 0 },
      unexpectedExits: [],
      checks: [{ name: 'the run completed', ok: false, figure: 'no', problems: [err.stack ?? err.message] }],
      recoveries: [],
    }),
  );
  console.log(formatRun(result));
  results.push(result);
  // The table so far after each run: a batch stopped early (Ctrl-C, a deadline) still has its rows.
  if (i < opts.runs - 1) {
    console.log(`after run ${i + 1}:\n${formatTable(results)}`);
    if (opts.topology === 'ha') console.log(formatRecoveries(results));
  }
}
console.log(formatTable(results));
if (opts.topology === 'ha') console.log(formatRecoveries(results));
const failed = results.filter((r) => r.checks.some((c) => !c.ok));
for (const r of failed)
  console.log(
    `FAILED: replay with make chaos SEED=${r.seed} DURATION=${opts.durationMs / 1000} FAULTS=${opts.faults.join(',')}` +
      (opts.topology === 'ha' ? ` TOPOLOGY=ha${opts.pgSync ? '' : ' CHAOS_PG_SYNC=off'}` : '') +
      (opts.sabotage ? ` CHAOS_SABOTAGE=${opts.sabotage}` : ''),
  );
process.exit(failed.length ? 1 : 0);
