/**
 * The commands a runbook tells the on-call engineer to run must exist: a runbook naming a script, a
 * sub-command, a queue or a flag that is not there fails at the worst moment. Checked offline: every
 * `npm run …`, `node <file>` and `make <target>` in a code span of docs/operating/runbooks.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Problem } from './kubernetes.ts';

const RUNBOOKS = 'docs/operating/runbooks.md';

interface Workspace {
  dir: string;
  name: string;
  scripts: Record<string, string>;
}

function workspaces(root: string): Workspace[] {
  const read = (dir: string): Workspace => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return { dir, name: pkg.name, scripts: pkg.scripts ?? {} };
  };
  const out = [read(root)];
  for (const top of ['libs', 'services', 'backup', 'deploy', 'e2e', 'chaos']) {
    const base = join(root, top);
    if (existsSync(join(base, 'package.json'))) out.push(read(base));
    else if (existsSync(base))
      for (const d of readdirSync(base))
        if (existsSync(join(base, d, 'package.json'))) out.push(read(join(base, d)));
  }
  return out;
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * Whether a command-line word is one the program knows: a sub-command or queue name is a quoted
 * string of its package or of the libraries (`'replay'`, `name: 'mail'`), a flag `--x` an option `x:`
 * or the quoted `'--x'`.
 */
function knows(sources: string, word: string): boolean {
  const esc = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (word.startsWith('--')) {
    const flag = esc.slice(2);
    return new RegExp(`['"\`]${esc}['"\`]|\\b${flag}: \\{`).test(sources);
  }
  return new RegExp(`['"\`]${esc}['"\`]`).test(sources);
}

/** The literal words of the arguments after `--`: placeholders (`<id>`, `…`) and paths are the reader's. */
function literalWords(args: string[]): string[] {
  return args.filter((a) => !/[<>…/]/.test(a) && a !== '...');
}

export function checkRunbookCommands(root: string, file = join(root, RUNBOOKS)): Problem[] {
  const problems: Problem[] = [];
  if (!existsSync(file)) return [{ source: RUNBOOKS, resource: RUNBOOKS, message: 'missing' }];
  const text = readFileSync(file, 'utf8');
  const all = workspaces(root);
  const libSources = readdirSync(join(root, 'libs'))
    .flatMap((d) => tsFiles(join(root, 'libs', d, 'src')))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const makefile = existsSync(join(root, 'Makefile')) ? readFileSync(join(root, 'Makefile'), 'utf8') : '';
  const spans = new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]));
  for (const span of spans) {
    const fail = (message: string) => problems.push({ source: RUNBOOKS, resource: span, message });
    for (const m of span.matchAll(/(?:^|\s)node (\S+\.ts)\b/g))
      if (!existsSync(join(root, m[1]))) fail(`${m[1]} does not exist`);
    const make = span.match(/^make ([\w-]+)/);
    if (make && !new RegExp(`^${make[1]}:`, 'm').test(makefile)) fail(`no make target ${make[1]}`);
    const npm = span.match(/^npm run ([\w:-]+)((?: -w \S+)?)(?: -- (.*))?$/);
    if (!npm) continue;
    const [, script, ws, rest] = npm;
    const wsName = ws.trim().replace(/^-w /, '');
    // `@coin/<service>`: every service that has the script must know the whole command.
    const targets = !wsName
      ? [all[0]]
      : wsName.includes('<')
        ? all.filter((w) => w.dir.startsWith(join(root, 'services')) && w.scripts[script])
        : all.filter((w) => w.name === wsName);
    if (targets.length === 0) fail(`no workspace ${wsName || '(root)'} has the script ${script}`);
    for (const w of targets) {
      const command = w.scripts[script];
      if (!command) {
        fail(`${w.name} has no script ${script}`);
        continue;
      }
      const entry = command.match(/^node (\S+\.ts)/)?.[1];
      if (!entry) continue;
      const entryPath = join(w.dir, entry);
      if (!existsSync(entryPath)) {
        fail(`${w.name}: ${script} runs ${entry}, which does not exist`);
        continue;
      }
      const words = literalWords((rest ?? '').split(/\s+/).filter(Boolean));
      const pkgDir = w.dir === root ? dirname(entryPath) : join(w.dir, 'src');
      // A root command given a service's name (`npm run parked -- jobs identity …`) runs that service's code.
      const serviceDirs =
        w.dir === root
          ? words.map((word) => join(root, 'services', word, 'src')).filter((d) => existsSync(d))
          : [];
      const sources = `${[pkgDir, ...serviceDirs]
        .flatMap(tsFiles)
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n')}\n${libSources}`;
      for (const word of words) if (!knows(sources, word)) fail(`${w.name}: ${script} knows no ${word}`);
    }
  }
  return problems;
}
