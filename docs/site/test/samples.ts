import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A code block a guide marks `<!-- sample -->` (or `<!-- sample: <text its output shows> -->`). */
export interface Sample {
  guide: string;
  lang: 'sh' | 'ts';
  code: string;
  /** Text the output must contain; without it, no failure envelope may appear. */
  expect?: string;
}

const MARKED = /^<!-- sample(?:: (.*?))? -->\n```(sh|ts)\n([\s\S]*?)\n```$/gm;

/** Every runnable sample of the partner guides, by guide, in page order. */
export function guideSamples(root: string): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>();
  for (const guide of readdirSync(join(root, 'docs/partners'))
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const text = readFileSync(join(root, 'docs/partners', guide), 'utf8');
    const samples = [...text.matchAll(MARKED)].map(
      (m): Sample => ({ guide, lang: m[2] as 'sh' | 'ts', code: m[3], ...(m[1] ? { expect: m[1] } : {}) }),
    );
    if (samples.length) out.set(guide, samples);
  }
  return out;
}

export interface SampleRun {
  sample: Sample;
  output: string;
}

/**
 * Runs a guide's samples in order, as a reader would paste them: the shell ones in one bash session
 * (later steps use the variables earlier ones set), the TypeScript ones with Node and the
 * workspace's SDK. `env` carries `COIN`, `ACCESS_TOKEN` and `USER_ID`.
 */
export async function runSamples(
  root: string,
  samples: Sample[],
  env: Record<string, string>,
): Promise<SampleRun[]> {
  const runs: SampleRun[] = [];
  const shell = samples.filter((s) => s.lang === 'sh');
  if (shell.length) {
    const script = shell.map((s, i) => `echo '@@sample ${i}'\n${s.code}\necho`).join('\n');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    const outputs = stdout.split(/^@@sample \d+\n/m).slice(1);
    for (const [i, sample] of shell.entries()) runs.push({ sample, output: outputs[i] ?? '' });
  }
  // A file outside the repository (Node strips types only outside node_modules), importing the
  // workspace's SDK by its path, as a partner's project imports the installed one.
  const dir = mkdtempSync(join(tmpdir(), 'doc-samples-'));
  const sdk = pathToFileURL(join(root, 'libs/sdk/src/index.ts')).href;
  for (const [i, sample] of samples.filter((s) => s.lang === 'ts').entries()) {
    const file = join(dir, `${sample.guide.replace(/\.md$/, '')}-${i}.ts`);
    writeFileSync(file, sample.code.replaceAll("'@coin/sdk'", `'${sdk}'`));
    const { stdout } = await run(process.execPath, [file], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    runs.push({ sample, output: stdout });
  }
  rmSync(dir, { recursive: true, force: true });
  return runs;
}
