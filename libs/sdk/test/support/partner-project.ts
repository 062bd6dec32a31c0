import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';

const run = promisify(execFile);
const SDK = fileURLToPath(new URL('../..', import.meta.url));
const FILES = fileURLToPath(new URL('../partner-project/', import.meta.url));
const TYPESCRIPT = JSON.parse(await readFile(new URL('../../../../package.json', import.meta.url), 'utf8'))
  .devDependencies.typescript as string;

/**
 * The environment of a command run as a partner would: none of the npm variables of the `npm run`
 * this test may run under (they name the workspace), so npm sees only the project it is in.
 */
function partnerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^INIT_CWD$/i.test(k)));
  return { ...env, ...extra };
}

export interface PartnerProject {
  dir: string;
  /** What each command printed, in order: pack, install, tsc. */
  log: string[];
  remove(): Promise<void>;
}

async function sh(log: string[], cwd: string, file: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run(file, args, { cwd, env: partnerEnv(), maxBuffer: 16 << 20 });
  log.push(`$ ${[file, ...args].join(' ')}\n${stdout}${stderr}`);
  return stdout;
}

/**
 * `npm pack` of the SDK (its prepack builds it), then an empty project in the machine's temporary
 * folder, outside the workspace, that installs the tarball and the registry's packages only
 * (`--prefer-offline`: from npm's cache where it has them) and compiles `journey.ts` in strict mode (and type-checks `browser.ts` with the DOM's types only).
 */
export async function packAndInstall(): Promise<PartnerProject> {
  const dir = await mkdtemp(join(tmpdir(), 'coin-partner-'));
  const log: string[] = [];
  await sh(log, SDK, 'npm', ['pack', '--pack-destination', dir]);
  const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'))!;
  const manifest = {
    name: 'partner-app',
    private: true,
    type: 'module',
    dependencies: { '@coin/sdk': `file:./${tarball}` },
    devDependencies: { typescript: TYPESCRIPT, '@types/node': '^20' },
  };
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  await mkdir(join(dir, 'src'));
  for (const f of ['journey.ts', 'browser.ts']) await copyFile(join(FILES, f), join(dir, 'src', f));
  for (const f of ['tsconfig.json', 'tsconfig.browser.json']) await copyFile(join(FILES, f), join(dir, f));
  await sh(log, dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund']);
  const tsc = join(dir, 'node_modules/.bin/tsc');
  await sh(log, dir, tsc, ['-p', 'tsconfig.json', '--listEmittedFiles']);
  await sh(log, dir, tsc, ['-p', 'tsconfig.browser.json']);
  return { dir, log, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The compiled journey run by `node` (a path, or `npm exec` of a registry Node), one JSON line per step. */
export async function runJourney(
  project: PartnerProject,
  node: string[],
  apiUrl: string,
): Promise<Record<string, unknown>[]> {
  const [file, ...args] = node;
  const { stdout } = await run(file, [...args, 'dist/journey.js'], {
    cwd: project.dir,
    env: partnerEnv({ COIN_API_URL: apiUrl }),
    timeout: 120_000,
  });
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** `browser.ts` bundled for browsers with the installed package, as a partner's web build would. */
export async function browserBundle(project: PartnerProject): Promise<string> {
  await build({
    root: project.dir,
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir: join(project.dir, 'web'),
      minify: false,
      lib: { entry: join(project.dir, 'src/browser.ts'), formats: ['es'], fileName: 'partner' },
    },
  });
  return readFile(join(project.dir, 'web/partner.js'), 'utf8');
}
