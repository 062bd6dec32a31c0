/**
 * `npm run audit` (`make audit`, part of `make test`): the production dependencies (`npm audit
 * --omit=dev`, against the registry) must have no known high or critical advisory, unless
 * audit-allowlist.json lists it with the reason it does not apply and a date to look again.
 * Exits 1 naming each advisory that fails. When the registry's advisory endpoint cannot be asked (a
 * mirror that refuses it), it says loudly that no audit ran, and fails only with AUDIT_REQUIRED=true
 * (set it in a CI that reaches the registry). `--report <file>` reads a saved `npm audit --json`,
 * `--allowlist <file>` another allowlist.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';

interface AllowedAdvisory {
  /** The GitHub advisory id, `GHSA-xxxx-xxxx-xxxx`. */
  id: string;
  package: string;
  /** Why it does not apply here. */
  reason: string;
  /** After this day (YYYY-MM-DD) the entry no longer allows anything. */
  reviewBy: string;
}

/** The allowlist's entries, each complete, or an error naming the first that is not. */
function readAllowlist(text: string): AllowedAdvisory[] {
  const entries = (JSON.parse(text) as { advisories?: unknown }).advisories;
  if (!Array.isArray(entries)) throw new Error('audit-allowlist.json: "advisories" must be a list');
  for (const [i, e] of entries.entries()) {
    const ok =
      /^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/.test(e?.id) &&
      typeof e.package === 'string' &&
      typeof e.reason === 'string' &&
      e.reason.length >= 20 &&
      /^\d{4}-\d{2}-\d{2}$/.test(e.reviewBy);
    if (!ok)
      throw new Error(
        `audit-allowlist.json: entry ${i} needs id (GHSA-…), package, a reason of 20 characters or more and reviewBy (YYYY-MM-DD)`,
      );
  }
  return entries;
}

interface Via {
  source?: number;
  name?: string;
  title?: string;
  url?: string;
  severity?: string;
}
interface AuditReport {
  vulnerabilities?: Record<string, { via: unknown[] }>;
}

const SEVERE = new Set(['high', 'critical']);
const root = new URL('../', import.meta.url);

async function npmAudit(): Promise<string> {
  // The npm that runs this script (make's, on the project's Node), else the one on PATH.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  try {
    const { stdout } = await promisify(execFile)(command, [...args, 'audit', '--omit=dev', '--json'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    // npm audit exits 1 when it found anything: its report is still on stdout.
    const stdout = (err as { stdout?: string }).stdout;
    if (stdout?.includes('"vulnerabilities"')) return stdout;
    const stderr = (err as { stderr?: string }).stderr ?? '';
    const why = stderr.split('\n').find((l) => /audit/.test(l)) ?? (err as Error).message.split('\n')[0];
    throw new Error(`npm audit could not ask the registry: ${why.trim()}`);
  }
}

const { values } = parseArgs({ options: { report: { type: 'string' }, allowlist: { type: 'string' } } });
const allowlistFile = values.allowlist ?? new URL('audit-allowlist.json', root);
const allowlist = readAllowlist(readFileSync(allowlistFile, 'utf8'));
const today = new Date().toISOString().slice(0, 10);
const allowed = new Map(allowlist.filter((a) => a.reviewBy >= today).map((a) => [a.id, a]));
for (const a of allowlist)
  if (a.reviewBy < today)
    console.error(`audit-allowlist.json: ${a.id} (${a.package}) was due for review on ${a.reviewBy}`);

let report: AuditReport;
try {
  const text = values.report ? readFileSync(values.report, 'utf8') : await npmAudit();
  report = JSON.parse(text) as AuditReport;
  if (typeof report.vulnerabilities !== 'object')
    throw new Error(`not an npm audit report: ${text.slice(0, 200)}`);
} catch (err) {
  console.error(`audit: NO AUDIT RAN: ${(err as Error).message}`);
  process.exit(process.env.AUDIT_REQUIRED === 'true' ? 1 : 0);
}
const advisories = new Map<string, Via>();
for (const entry of Object.values(report.vulnerabilities ?? {}))
  for (const via of entry.via)
    if (typeof via === 'object' && via && SEVERE.has(String((via as Via).severity)))
      advisories.set((via as Via).url?.split('/').at(-1) ?? String((via as Via).source), via as Via);
const failing = [...advisories].filter(([id]) => !allowed.has(id));
for (const [id, via] of advisories)
  console.log(
    `${allowed.has(id) ? 'allowed' : 'FAILS  '} ${via.severity} ${id} ${via.name}: ${via.title}${allowed.has(id) ? ` (${allowed.get(id)!.reason})` : ''}`,
  );
if (failing.length) {
  console.error(
    `audit: ${failing.length} high or critical advisory(ies) in the production dependencies: update the package, or list the advisory in audit-allowlist.json with the reason it does not apply`,
  );
  process.exit(1);
}
console.log(
  `audit: no high or critical advisory in the production dependencies (${allowed.size} allowed by audit-allowlist.json)`,
);
