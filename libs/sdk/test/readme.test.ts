import { readFile } from 'node:fs/promises';
import type { Operation } from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import { partnerOperations, SDK_VERSION } from '../src/index.ts';

const text = (file: string) => readFile(new URL(`../${file}`, import.meta.url), 'utf8');

describe('what the package says about itself', () => {
  it('lists every keyed call in the README', async () => {
    const readme = await text('README.md');
    const section = readme.slice(readme.indexOf('## Idempotency'), readme.indexOf('## Retries'));
    const listed = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]).sort();
    const keyed = Object.entries(partnerOperations)
      .filter(([, op]) => (op as Operation).http!.idempotent)
      .map(([name]) => name)
      .sort();
    expect(listed).toEqual(keyed);
  });

  it('sends the version package.json carries, and the CHANGELOG has its release', async () => {
    const manifest = JSON.parse(await text('package.json'));
    expect(SDK_VERSION).toBe(manifest.version);
    expect(await text('CHANGELOG.md')).toContain(`\n## ${manifest.version}\n`);
  });
});
