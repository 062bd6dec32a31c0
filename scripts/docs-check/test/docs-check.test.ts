import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkApiFigures } from '../api-figures.ts';
import { checkDecisionRecords } from '../decision-records.ts';
import { checkIssueNumbers } from '../issue-numbers.ts';
import { checkLinks } from '../links.ts';
import { checkDocs, contractFigures } from '../main.ts';
import { checkReadmeLength } from '../readme-length.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const roots: string[] = [];

/** A small repository of the given files (path → text), to run one check on. */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'coin-docs-check-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const messages = (problems: { file: string; line?: number; message: string }[]) =>
  problems.map((p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);

afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('documentation checks', () => {
  it('pass on this repository', async () => {
    expect(messages(await checkDocs(ROOT))).toEqual([]);
  });

  it('refuse a README over 200 lines, and take one of 200', () => {
    const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i}`).join('\n')}\n`;
    expect(checkReadmeLength(repo({ 'README.md': lines(200) }))).toEqual([]);
    expect(messages(checkReadmeLength(repo({ 'README.md': lines(201) })))).toEqual([
      'README.md: 201 lines, more than 200: move the rest into docs/',
    ]);
  });

  it('refuse a link to a missing file or heading, here or in another document', async () => {
    const root = repo({
      'README.md':
        '# Front\n\n[ok](docs/a.md#kept-heading) [file](docs/missing.md) [anchor](docs/a.md#gone)\n',
      'docs/a.md':
        '# A\n\n## Kept heading\n\n[self](#nowhere) [up](../README.md#front) [code](../services/x/src/y.ts)\n',
      'services/x/README.md': '# x\n\n[guide](../../docs/a.md) [image](../../docs/shot.png)\n',
      'services/x/src/y.ts': 'export {};\n',
      'CHANGELOG.md': '# Changelog\n\n[moved](docs/runbooks.md)\n',
    });
    expect(messages(await checkLinks(root)).sort()).toEqual(
      [
        'CHANGELOG.md:3: Cannot find file `docs/runbooks.md`',
        'README.md:3: Cannot find file `docs/missing.md`',
        'README.md:3: Cannot find heading for `#gone` in `docs/a.md`',
        'docs/a.md:5: Cannot find heading for `#nowhere`',
        'services/x/README.md:3: Cannot find file `../../docs/shot.png`',
      ].sort(),
    );
  });

  it('refuse an issue number in a document or a comment, not in code or an upstream reference', () => {
    const n = 14;
    const root = repo({
      'README.md': `# Front\n\nAs issue ${n} asked.\n`,
      'docs/a.md': `# A\n\nFixed in #${n + 2}, see kysely-org/kysely#1990.\n`,
      'services/x/README.md': '# x\n\nNothing to see.\n',
      'libs/y/src/z.ts': [
        `// the targets of issue #${n}`,
        '/**',
        ` * Pull request ${n + 1} moved it.`,
        ' */',
        `export const label = 'issue ${n}'; // a replica: wallet#1`,
        '',
      ].join('\n'),
      'services/x/src/migrations/0001.sql': `-- what issue ${n} wanted\nSELECT '#${n}';\n`,
    });
    expect(messages(checkIssueNumbers(root))).toEqual([
      `README.md:3: names an issue number ("issue ${n}"): say what the target is`,
      `docs/a.md:3: names an issue number ("#${n + 2}"): say what the target is`,
      `libs/y/src/z.ts:1: a comment names an issue number ("issue #${n}"): say what the target is`,
      `libs/y/src/z.ts:3: a comment names an issue number ("Pull request ${n + 1}"): say what the target is`,
      `services/x/src/migrations/0001.sql:1: a comment names an issue number ("issue ${n}"): say what the target is`,
    ]);
  });

  it('refuse a count of operations or webhook event kinds the contracts do not define', () => {
    const figures = { httpOperations: 39, internalOperations: 6, methodPathPairs: 40, eventKinds: 6 };
    const root = repo({
      'README.md':
        '# Front\n\nThe API has 39 operations (40 method and path pairs) and six webhook event kinds.\n',
      'docs/partners/a.md':
        '# A\n\n35 operations, one webhook event kind... and 5 kinds of webhook events.\n',
      'docs/b.md': "# B\n\nThe 7 internal operations, and the one operations' requests use.\n",
      'docs/decisions/2026-01-01-old.md': '# Old\n\nAt the time, 35 operations.\n',
      'CHANGELOG.md': '# Changelog\n\n- 35 operations then.\n',
    });
    expect(messages(checkApiFigures(root, figures))).toEqual([
      'docs/b.md:3: says "7 internal operations", but the contracts define 6 internal operations',
      'docs/partners/a.md:3: says "35 operations", but the contracts define 39 HTTP operations',
      'docs/partners/a.md:3: says "5 kinds of webhook events", but the contracts define 6 webhook event kinds',
    ]);
  });

  it('refuse a decision record not named by its date, or missing from the index', () => {
    const root = repo({
      'docs/decisions/README.md': '# Decisions\n\n- [Listed](2026-01-01-listed.md)\n',
      'docs/decisions/2026-01-01-listed.md': '# Listed\n',
      'docs/decisions/2026-01-02-forgotten.md': '# Forgotten\n',
      'docs/decisions/notes on caching.md': '# Notes\n',
    });
    expect(messages(checkDecisionRecords(root))).toEqual([
      'docs/decisions/2026-01-02-forgotten.md: not listed in docs/decisions/README.md',
      'docs/decisions/notes on caching.md: a decision record is named YYYY-MM-DD-short-slug.md',
    ]);
  });

  it("count the contracts' operations and event kinds", () => {
    const f = contractFigures();
    expect(f.httpOperations).toBeGreaterThan(0);
    expect(f.methodPathPairs).toBeGreaterThanOrEqual(f.httpOperations);
    expect(f.eventKinds).toBeGreaterThan(0);
  });
});
