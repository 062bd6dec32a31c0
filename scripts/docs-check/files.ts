import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One problem a check found: the file (relative to the root), its line when known, and what is wrong. */
export interface Problem {
  file: string;
  line?: number;
  message: string;
}

/** Where the code is: every workspace's sources, tests and tools. */
export const CODE_DIRS = [
  'libs',
  'services',
  'scripts',
  'bench',
  'chaos',
  'e2e',
  'deploy',
  'backup',
  'dashboard/src',
];

/** Markdown files under `dir` (relative to `root`), recursively, sorted. */
function markdownUnder(root: string, dir: string): string[] {
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** The documents every check reads: the root ones, docs/ and each service's README. */
export function documents(root: string): string[] {
  const rootFiles = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((f) => existsSync(join(root, f)));
  const services = existsSync(join(root, 'services'))
    ? readdirSync(join(root, 'services'))
        .map((s) => join('services', s, 'README.md'))
        .filter((f) => existsSync(join(root, f)))
        .sort()
    : [];
  return [...rootFiles, ...markdownUnder(root, 'docs'), ...services];
}

/** Source files under `dir` with one of `extensions`, skipping dependencies and build output. */
export function sourcesUnder(root: string, dir: string, extensions: string[]): string[] {
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && extensions.some((x) => e.name.endsWith(x)))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((f) => !/(^|\/)(node_modules|dist)\//.test(f))
    .sort();
}
