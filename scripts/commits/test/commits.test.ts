import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { historyProblems } from '../check-history.ts';
import { cleanedMessage, messageProblems } from '../convention.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const roots: string[] = [];

/** A repository with the hook and the checks of this one, and one commit; returns its root. */
function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'coin-commits-'));
  roots.push(root);
  cpSync(join(ROOT, '.githooks'), join(root, '.githooks'), { recursive: true });
  cpSync(join(ROOT, 'scripts/commits'), join(root, 'scripts/commits'), { recursive: true });
  mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/.bin/node'), join(root, 'node_modules/.bin/node'));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'core.hooksPath', '.githooks');
  git(
    root,
    'commit',
    '-q',
    '--no-verify',
    '--allow-empty',
    '-m',
    'before the convention: any subject at all, of any length, no area',
  );
  return root;
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    encoding: 'utf8',
  }).trim();
}

/** Commits a change with `message` through the hook; git's exit status and what the hook printed. */
function commit(root: string, message: string): { status: number | null; stderr: string } {
  writeFileSync(join(root, 'change.txt'), `${Math.random()}`);
  git(root, 'add', 'change.txt');
  const r = spawnSync(
    'git',
    ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', message],
    { encoding: 'utf8' },
  );
  return { status: r.status, stderr: r.stderr };
}

function mark(root: string, hash: string): void {
  writeFileSync(join(root, 'scripts/commits/checked-after'), `# the marker\n${hash}\n`);
}

afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('the commit convention', () => {
  it('takes area: what changed in 72 characters, and refuses a longer subject, no area, or no blank line', () => {
    expect(messageProblems('wallet: holds count against the issuance limit\n\nBecause.\n')).toEqual([]);
    expect(messageProblems(`deploy test: ${'x'.repeat(59)}`)).toEqual([]);
    expect(messageProblems(`deploy test: ${'x'.repeat(60)}`)).toEqual([
      'the subject is 73 characters, more than 72: put the rest in the body',
    ]);
    expect(messageProblems('Fix the thing')).toEqual([
      "the subject does not read 'area: what changed' (e.g. 'wallet: …')",
    ]);
    expect(messageProblems('db: a change\nwith a body glued on')).toEqual([
      'the subject and the body need a blank line between them',
    ]);
    expect(
      cleanedMessage(
        '# Please enter\ndb: a change\n\nwhy\n# ------------------------ >8 ------------------------\ndiff',
      ),
    ).toBe('db: a change\n\nwhy\n');
  });

  it('is enforced by the commit-msg hook: a long subject is refused and nothing is committed', () => {
    const root = repository();
    const before = git(root, 'rev-parse', 'HEAD');
    const refused = commit(root, `wallet: ${'a very long subject '.repeat(4)}`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('commit refused: the subject is 87 characters, more than 72');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(before);
    expect(commit(root, 'wallet: a subject that fits').status).toBe(0);
    expect(commit(root, 'fixup! wallet: a subject that fits').status).toBe(0);
  });

  it('checks every commit after the marker, and says so when the marker is not in the history', () => {
    const root = repository();
    const marker = git(root, 'rev-parse', 'HEAD');
    mark(root, marker);
    expect(historyProblems(root)).toEqual([]);
    git(root, 'commit', '-q', '--no-verify', '--allow-empty', '-m', 'no area here');
    const bad = git(root, 'rev-parse', '--short=12', 'HEAD');
    expect(historyProblems(root)).toEqual([
      `${bad} no area here: the subject does not read 'area: what changed' (e.g. 'wallet: …')`,
    ]);
    mark(root, 'f'.repeat(40));
    expect(historyProblems(root)).toEqual([
      `the marker commit ${'f'.repeat(40)} (scripts/commits/checked-after) is not in the history of HEAD: ` +
        'a shallow clone (git fetch --unshallow) or a rewritten history; commits cannot be checked',
    ]);
  });
});
