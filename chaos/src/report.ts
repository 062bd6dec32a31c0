import type { RunResult } from './run.ts';

/** One run's final read: each check with its figure, and what broke it. */
export function formatRun(run: RunResult): string {
  const lines = run.checks.map((c) => {
    const head = `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.figure}`;
    const shown = c.problems.slice(0, 10).map((p) => `         - ${p}`);
    if (c.problems.length > 10) shown.push(`         … and ${c.problems.length - 10} more`);
    return [head, ...shown].join('\n');
  });
  for (const e of run.unexpectedExits) lines.push(`  note: ${e}`);
  return lines.join('\n');
}

/** The table of every run: faults by kind, requests by outcome, failed checks. */
export function formatTable(runs: RunResult[]): string {
  const header = [
    'run',
    'seed',
    'kill',
    'pause',
    'restart pg/nats/redis',
    'ok',
    '4xx',
    'unanswered',
    '5xx seen',
    'no answer',
    'exits by itself',
    'checks',
  ];
  const rows = runs.map((r, i) => {
    const f = r.faults.injected;
    const failed = r.checks.filter((c) => !c.ok);
    return [
      String(i + 1),
      String(r.seed),
      String(f.kill),
      String(f.pause),
      `${f['restart-postgres']}/${f['restart-nats']}/${f['restart-redis']}`,
      String(r.requests.ok),
      String(r.requests.refused),
      String(r.requests.unanswered),
      String(r.requests.serverErrors),
      String(r.requests.noAnswer),
      String(r.unexpectedExits.length),
      failed.length
        ? `${failed.length} FAILED: ${failed.map((c) => c.name).join('; ')}`
        : `${r.checks.length} passed`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
