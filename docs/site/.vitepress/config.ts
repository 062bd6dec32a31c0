import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { sourceFolder } from '../assemble.ts';
import { guideOrder } from '../pages.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const guides = guideOrder(readFileSync(`${ROOT}/docs/partners/README.md`, 'utf8'));
/** Redoc's page is not one of VitePress's: links to it leave the client-side router. */
const reference = { text: 'API reference', link: '/api/', target: '_self' };

// The site served by the gateway at /docs (build.ts assembles its pages first).
export default defineConfig({
  title: 'Coin rewards API',
  description: 'Partner guides, the API reference and the SDK of the coin rewards and partner API.',
  base: '/docs/',
  srcDir: sourceFolder(ROOT),
  outDir: 'dist',
  cacheDir: `${ROOT}/node_modules/.cache/vitepress`,
  // Redoc's page is built beside VitePress's, not by it.
  ignoreDeadLinks: [/^\/api\//],
  // The documents are written for any Markdown reader: `<ACCESS_TOKEN>` in a sentence is text.
  markdown: { html: false },
  themeConfig: {
    search: { provider: 'local' },
    outline: [2, 3],
    nav: [
      { text: 'Guides', link: '/partners/' },
      reference,
      { text: 'SDK', link: '/sdk/' },
      { text: 'Changelog', link: '/changelog' },
    ],
    sidebar: [
      {
        text: 'Guides',
        items: [
          { text: 'Overview', link: '/partners/' },
          ...guides.map((g) => ({
            text: g.title[0].toUpperCase() + g.title.slice(1),
            link: `/partners/${g.file.replace(/\.md$/, '')}`,
          })),
        ],
      },
      {
        text: 'Reference',
        items: [
          reference,
          { text: 'About the reference', link: '/reference/' },
          { text: 'Specification', link: '/specification' },
          { text: 'Glossary', link: '/glossary' },
          { text: 'Changelog', link: '/changelog' },
        ],
      },
      {
        text: 'SDK',
        items: [
          { text: '@coin/sdk', link: '/sdk/' },
          { text: 'SDK changelog', link: '/sdk/changelog' },
        ],
      },
    ],
  },
});
