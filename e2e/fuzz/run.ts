import { request } from 'undici';
import type { Draft, FuzzWorld } from './draft.ts';
import { toWire } from './draft.ts';
import { fuzzRequest, requestAt } from './generate.ts';
import { type Outcome, violation } from './oracle.ts';

export interface FuzzOptions {
  baseUrl: string;
  world: FuzzWorld;
  seed: number;
  count: number;
  /** Only this request of the run (a replay). */
  only?: number;
  concurrency?: number;
  /** Longer than the gateway's own request timeout: past it, the request hangs. */
  timeoutMs?: number;
  /** Called after every 1,000th answer, with the answers by status so far. */
  onProgress?: (sent: number, byStatus: Record<string, number>) => void;
}

export interface Failure {
  index: number;
  reason: string;
  request: string;
  answer: string;
}

export interface FuzzReport {
  seed: number;
  sent: number;
  /** Answers by HTTP status, plus `hang`, `reset` and `unsendable`. */
  byStatus: Record<string, number>;
  failures: Failure[];
  /** The five slowest answers: where a run spends its time. */
  slowest: { ms: number; request: string; outcome: string }[];
}

async function send(baseUrl: string, d: Draft, timeoutMs: number): Promise<Outcome> {
  const wire = toWire(d);
  try {
    // Concatenated, not resolved: a path that starts with `//` must stay a path.
    const res = await request(`${baseUrl}${wire.path}`, {
      method: wire.method as 'GET',
      headers: wire.headers,
      body: wire.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    return {
      kind: 'answer',
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      text,
    };
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    const message = `${code} ${(err as Error).message}`;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'hang' };
    if (code === 'UND_ERR_INVALID_ARG' || err instanceof TypeError)
      return { kind: 'unsendable', error: message };
    return { kind: 'reset', error: message };
  }
}

function describe(d: Draft): string {
  const wire = toWire(d);
  const body = wire.body
    ? ` body(${wire.body.length} B) ${JSON.stringify(wire.body.subarray(0, 300).toString('utf8'))}`
    : '';
  return `${d.op.name}: ${wire.method} ${wire.path.slice(0, 300)} [${d.notes.join('; ')}]${body}`;
}

function outcomeKey(o: Outcome): string {
  return o.kind === 'answer' ? String(o.status) : o.kind;
}

/** Sends `count` generated requests through the gateway and judges every answer. */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const arbitrary = fuzzRequest(opts.world);
  const timeoutMs = opts.timeoutMs ?? 45_000;
  const indexes = opts.only === undefined ? Array.from({ length: opts.count }, (_, i) => i) : [opts.only];
  const report: FuzzReport = { seed: opts.seed, sent: 0, byStatus: {}, failures: [], slowest: [] };
  let next = 0;
  async function worker() {
    while (next < indexes.length) {
      const index = indexes[next++];
      const draft = requestAt(arbitrary, opts.seed, index);
      const began = performance.now();
      const outcome = await send(opts.baseUrl, draft, timeoutMs);
      const ms = Math.round(performance.now() - began);
      report.sent++;
      if (report.slowest.length < 5 || ms > report.slowest[4].ms) {
        report.slowest.push({ ms, request: describe(draft).slice(0, 300), outcome: outcomeKey(outcome) });
        report.slowest.sort((a, b) => b.ms - a.ms).splice(5);
      }
      if (report.sent % 1000 === 0) opts.onProgress?.(report.sent, report.byStatus);
      const key = outcomeKey(outcome);
      report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
      const reason = violation(draft, outcome);
      if (reason)
        report.failures.push({
          index,
          reason,
          request: describe(draft),
          answer: outcome.kind === 'answer' ? outcome.text.slice(0, 300) : outcome.kind,
        });
    }
  }
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  report.failures.sort((a, b) => a.index - b.index);
  return report;
}

/** The kind of a failure: its reason without the details that differ from one request to the next. */
function kindOf(f: Failure): string {
  return `${f.reason.replace(/:.*$/, '')} (${f.request.slice(0, f.request.indexOf(':'))})`;
}

/** The status table, then the failures by kind, two examples each with the command that replays it. */
export function formatReport(r: FuzzReport): string {
  const rows = Object.entries(r.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `  ${k.padEnd(10)} ${String(n).padStart(6)}`);
  const lines = [`fuzz: seed ${r.seed}, ${r.sent} requests`, '  status      count', ...rows];
  lines.push('  slowest:', ...r.slowest.map((x) => `    ${x.ms} ms ${x.outcome} ${x.request}`));
  lines.push(`  failures ${r.failures.length}`);
  const kinds = new Map<string, Failure[]>();
  for (const f of r.failures) kinds.set(kindOf(f), [...(kinds.get(kindOf(f)) ?? []), f]);
  for (const [kind, list] of [...kinds].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`- ${list.length} x ${kind}`);
    for (const f of list.slice(0, 2)) {
      lines.push(`    #${f.index} (replay: SEED=${r.seed} FUZZ_INDEX=${f.index} npm run fuzz) ${f.reason}`);
      lines.push(`      ${f.request}`);
      lines.push(`      answer: ${f.answer}`);
    }
  }
  return lines.join('\n');
}
