import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, posix } from 'node:path';
import { sitePages } from './pages.ts';

/** What assembling found: files copied beside the pages, and links that left the site. */
export interface Assembly {
  assets: string[];
  unlinked: { page: string; target: string }[];
}

const LINK = /(!?)\[([^\]]*)\]\(([^)\s]+)\)/g;

/**
 * Copies the site's pages from the repository into `src` (VitePress's source folder) under their
 * site paths, rewriting each relative link: to the page's new place, to a file copied beside it
 * (images, scripts to download), or to plain text when it leaves the site.
 */
export function assemble(root: string, src: string): Assembly {
  const pages = sitePages(root);
  const out: Assembly = { assets: [], unlinked: [] };
  rmSync(src, { recursive: true, force: true });
  for (const [from, to] of Object.entries(pages)) {
    // The markers of runnable samples are for the site's test (test/samples.ts), not for readers.
    const text = readFileSync(join(root, from), 'utf8').replace(/^<!-- sample.*-->\n/gm, '');
    const rewritten = text.replace(LINK, (whole, bang: string, label: string, target: string) => {
      if (/^[a-z]+:|^#|^\//i.test(target)) return whole;
      const [path, anchor = ''] = target.split('#');
      const repoPath = normalize(posix.join(posix.dirname(from), path));
      const hash = anchor ? `#${anchor}` : '';
      const page = pages[repoPath];
      if (page) return `${bang}[${label}](${posix.relative(posix.dirname(to), page) || '.'}${hash})`;
      if (existsSync(join(root, repoPath)) && !repoPath.endsWith('.md') && !repoPath.startsWith('..')) {
        // Images go through the site's build; other files are served as they are, beside the page.
        const asset = repoPath.replace(/^docs\//, '');
        const dest = bang ? join(src, asset) : join(src, 'public', asset);
        mkdirSync(dirname(dest), { recursive: true });
        copyFileSync(join(root, repoPath), dest);
        out.assets.push(repoPath);
        return `${bang}[${label}](${posix.relative(posix.dirname(to), asset)}${hash})`;
      }
      out.unlinked.push({ page: from, target });
      return label;
    });
    mkdirSync(dirname(join(src, to)), { recursive: true });
    writeFileSync(join(src, to), rewritten);
  }
  return out;
}

/** The folder VitePress reads: generated, outside docs/ (whose documents lint checks as written). */
export function sourceFolder(root: string): string {
  return join(root, 'node_modules/.cache/docs-site');
}
