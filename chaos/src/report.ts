import type { FaultKind } from './options.ts';
import { summarize } from './rto.ts';
import type { RunResult } from './run.ts';

/** One run's final read: each check with its figure, and what broke it; the RTO of each fault. */
export function formatRun(run: RunResult): string {
  const lines = run.checks.map((c) => {
    const head = `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.figure}`;
    const shown = c.problems.slice(0, 10).map((p) => `         - ${p}`);
    if (c.problems.length > 10) shown.push(`         … and ${c.problems.length - 10} more`);
    return [head, ...shown].join('\n');
  });
  for (const e of run.unexpectedExits) lines.push(`  note: ${e}`);
  for (const r of run.recoveries)
    lines.push(`  rto: ${r.ms === null ? 'no write acknowledged after' : `${r.ms} ms`} ${r.label}`);
  return lines.join('\n');
}

const HA_KINDS: [string, FaultKind[]][] = [
  ['pg failover', ['failover-postgres']],
  ['pg standby kill', ['kill-postgres-standby']],
  ['nats kill', ['kill-nats-node']],
  ['nats pause', ['pause-nats-node']],
  ['nats partition', ['partition-nats-node']],
  ['overlap', ['overlap']],
];

/** The table of every run: faults by kind, requests by outcome, the RTO, failed checks. */
export function formatTable(runs: RunResult[]): string {
  const ha = runs.some((r) => r.recoveries.length > 0 || r.faults.injected['failover-postgres'] > 0);
  const header = [
    'run',
    'seed',
    'kill',
    'pause',
    ...(ha
      ? ['pg failover', 'pg standby kill', 'nats kill/pause/partition', 'overlap', 'redis restart', 'skipped']
      : ['restart pg/nats/redis']),
    'ok',
    '4xx',
    'unanswered',
    '5xx seen',
    'no answer',
    'exits by itself',
    ...(ha ? ['RTO pg failover (median/worst)', 'RTO nats (median/worst)'] : []),
    'checks',
  ];
  const rows = runs.map((r, i) => {
    const f = r.faults.injected;
    const failed = r.checks.filter((c) => !c.ok);
    const rto = (kinds: FaultKind[]) =>
      summarize(r.recoveries.filter((x) => kinds.includes(x.kind)).map((x) => x.ms));
    return [
      String(i + 1),
      String(r.seed),
      String(f.kill),
      String(f.pause),
      ...(ha
        ? [
            String(f['failover-postgres']),
            String(f['kill-postgres-standby']),
            `${f['kill-nats-node']}/${f['pause-nats-node']}/${f['partition-nats-node']}`,
            String(f.overlap),
            String(f['restart-redis']),
            String(r.faults.skipped),
          ]
        : [`${f['restart-postgres']}/${f['restart-nats']}/${f['restart-redis']}`]),
      String(r.requests.ok),
      String(r.requests.refused),
      String(r.requests.unanswered),
      String(r.requests.serverErrors),
      String(r.requests.noAnswer),
      String(r.unexpectedExits.length),
      ...(ha
        ? [
            rto(['failover-postgres', 'overlap']),
            rto(['kill-nats-node', 'pause-nats-node', 'partition-nats-node']),
          ]
        : []),
      failed.length
        ? `${failed.length} FAILED: ${failed.map((c) => c.name).join('; ')}`
        : `${r.checks.length} passed`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Across every run: how long writes stopped after each kind of server fault (median and worst). */
export function formatRecoveries(runs: RunResult[]): string {
  const all = runs.flatMap((r) => r.recoveries);
  const lines = [
    'RTO (from the fault, a failover from its kill, to the first write sent after it and acknowledged):',
  ];
  for (const [name, kinds] of HA_KINDS) {
    const list = all.filter((x) => kinds.includes(x.kind)).map((x) => x.ms);
    lines.push(`  ${name}: ${list.length} faults, median/worst ${summarize(list)}`);
  }
  return lines.join('\n');
}
