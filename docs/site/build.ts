/**
 * `npm run docs:build` (`make docs`): the documentation site, static, into docs/site/dist, which the
 * gateway serves at /docs. The partner guides and the pages they link (assemble.ts) are built by
 * VitePress, with its local search; the API reference is Redoc's rendering of
 * docs/reference/openapi.json, with its scripts inlined, at /docs/api/. Nothing is fetched.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vitepress';
import { assemble, sourceFolder } from './assemble.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const src = sourceFolder(ROOT);

const { assets, unlinked } = assemble(ROOT, src);
console.log(
  `docs: ${assets.length} files copied beside the pages; ${unlinked.length} links leave the site (kept as text)`,
);
mkdirSync(join(src, 'public/api'), { recursive: true });
execFileSync(
  join(ROOT, 'node_modules/.bin/redocly'),
  [
    'build-docs',
    join(ROOT, 'docs/reference/openapi.json'),
    '--output',
    join(src, 'public/api/index.html'),
    '--inlineBundle',
    '--title',
    'Coin rewards and partner API reference',
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
await build(fileURLToPath(new URL('.', import.meta.url)));
