/**
 * `npm run lint`'s check of the history (so CI's): every commit after the marker commit named in
 * scripts/commits/checked-after follows the commit convention. The commits before it keep the
 * subjects they were written with; history is never rewritten to fix them.
 * `node scripts/commits/check-history.ts [root]`; exits 1 naming each commit and what is wrong.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { messageProblems } from './convention.ts';

/** The marker: the file's one line that is not a `#` comment, a full commit hash. */
export function markerOf(root: string): string {
  const lines = readFileSync(join(root, 'scripts/commits/checked-after'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length !== 1 || !/^[0-9a-f]{40}$/.test(lines[0]))
    throw new Error('scripts/commits/checked-after must name one commit by its full hash');
  return lines[0];
}

/** The problems of each commit after the marker, or one problem when the marker is not in the history. */
export function historyProblems(root: string): string[] {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const marker = markerOf(root);
  try {
    git('merge-base', '--is-ancestor', marker, 'HEAD');
  } catch {
    return [
      `the marker commit ${marker} (scripts/commits/checked-after) is not in the history of HEAD: ` +
        'a shallow clone (git fetch --unshallow) or a rewritten history; commits cannot be checked',
    ];
  }
  const log = git('log', '--format=%H%x00%B%x1e', `${marker}..HEAD`);
  return log
    .split('\x1e')
    .map((entry) => entry.replace(/^\n/, ''))
    .filter((entry) => entry.includes('\x00'))
    .flatMap((entry) => {
      const [hash, message] = entry.split('\x00');
      return messageProblems(message).map((p) => `${hash.slice(0, 12)} ${message.split('\n')[0]}: ${p}`);
    });
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? '.');
  let inside = false;
  try {
    inside =
      execFileSync('git', ['-C', root, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' }).trim() ===
      'true';
  } catch {}
  if (!inside) {
    console.log('commits: not a git work tree, no history to check');
    process.exit(0);
  }
  const problems = historyProblems(root);
  for (const p of problems) console.error(`✗ ${p}`);
  if (problems.length > 0) {
    const hint = problems[0].startsWith('the marker commit')
      ? 'clone with the whole history'
      : 'reword unlanded commits with git rebase -i (reword)';
    console.error(`commits: ${problems.length} problem(s); ${hint}`);
    process.exit(1);
  }
}
