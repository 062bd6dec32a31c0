import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run audit` on a saved `npm audit --json` report: a high advisory of a production dependency
 * fails the run unless the allowlist names it, with a reason, until its review date.
 */
const dir = mkdtempSync(join(tmpdir(), 'coin-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const advisory = (id: string, severity: string) => ({
  source: 1,
  name: `lib-${severity}`,
  title: `a ${severity} advisory`,
  url: `https://github.com/advisories/${id}`,
  severity,
});
const report = join(dir, 'report.json');
writeFileSync(
  report,
  JSON.stringify({
    vulnerabilities: {
      'lib-high': { via: [advisory('GHSA-2222-3333-4444', 'high')] },
      'lib-low': { via: [advisory('GHSA-5555-6666-7777', 'low'), 'lib-high'] },
    },
  }),
);

async function audit(entries: object[]): Promise<{ code: number; output: string }> {
  const allowlist = join(dir, `allow-${entries.length}-${Math.random()}.json`);
  writeFileSync(allowlist, JSON.stringify({ advisories: entries }));
  const args = ['scripts/audit.ts', '--report', report, '--allowlist', allowlist];
  return promisify(execFile)(process.execPath, args).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      output: err.stdout + err.stderr,
    }),
  );
}

const entry = (reviewBy: string) => ({
  id: 'GHSA-2222-3333-4444',
  package: 'lib-high',
  reason: 'only its CLI is affected, which nothing in production runs',
  reviewBy,
});

describe('the dependency audit', () => {
  it('fails on a high advisory the allowlist does not name, and names it', async () => {
    const run = await audit([]);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/FAILS +high GHSA-2222-3333-4444 lib-high/);
    expect(run.output).not.toMatch(/GHSA-5555-6666-7777/);
  });

  it('passes when the allowlist names it with a reason, until its review date', async () => {
    const allowed = await audit([entry('2999-01-01')]);
    expect(allowed.code).toBe(0);
    expect(allowed.output).toMatch(/allowed high GHSA-2222-3333-4444 .*only its CLI is affected/);
    const expired = await audit([entry('2020-01-01')]);
    expect(expired.code).toBe(1);
    expect(expired.output).toMatch(/was due for review on 2020-01-01/);
  });

  it('refuses an allowlist entry without a reason', async () => {
    expect((await audit([{ ...entry('2999-01-01'), reason: 'ok' }])).code).toBe(1);
  });
});
