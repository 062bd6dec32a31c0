import { readdirSync } from 'node:fs';

/**
 * The site's pages: each repository file (path from the repository's root) and where it goes in
 * the site. Links between them are rewritten to the site's paths; a link to any other file of the
 * repository keeps its text and loses its target (operators' and contributors' documents are not
 * part of the partners' site).
 */
export function sitePages(root: string): Record<string, string> {
  const guides = readdirSync(`${root}/docs/partners`).filter((f) => f.endsWith('.md'));
  return {
    'docs/site/index.md': 'index.md',
    ...Object.fromEntries(
      guides.map((f) => [`docs/partners/${f}`, f === 'README.md' ? 'partners/index.md' : `partners/${f}`]),
    ),
    'docs/reference/README.md': 'reference/index.md',
    'docs/specification.md': 'specification.md',
    'docs/glossary.md': 'glossary.md',
    'CHANGELOG.md': 'changelog.md',
    'libs/sdk/README.md': 'sdk/index.md',
    'libs/sdk/CHANGELOG.md': 'sdk/changelog.md',
  };
}

/** The guides in the order the partner guides' index lists them, with their titles. */
export function guideOrder(readme: string): { title: string; file: string }[] {
  return [...readme.matchAll(/^\| \[([^\]]+)\]\(([\w-]+\.md)\) \|/gm)].map((m) => ({
    title: m[1],
    file: m[2],
  }));
}
