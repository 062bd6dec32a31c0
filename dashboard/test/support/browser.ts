import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';

/** axe-core's WCAG 2.1 A and AA rules: the serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

/**
 * The share of pixels that may differ from the committed screenshot. The data are fixed and what
 * varies by run (ids and times: `code.id` and `time` elements) is masked, but the overview's
 * bars stand on today's date and text anti-aliasing varies by a few pixels.
 */
const TOLERANCE = 0.005;

/** Pixels that differ between two PNGs (pixelmatch's per-pixel colour threshold), or undefined when their sizes differ. */
function differingPixels(committed: Buffer, taken: Buffer): { differ: number; of: number } | undefined {
  const a = PNG.sync.read(committed);
  const b = PNG.sync.read(taken);
  if (a.width !== b.width || a.height !== b.height) return undefined;
  const differ = pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0.1 });
  return { differ, of: a.width * a.height };
}

/**
 * Takes the page's screenshot on every run and compares it with the one in docs/screenshots/: within
 * the tolerance the committed file stays; otherwise it is rewritten and the difference is returned
 * (the caller fails on it), so a page that changed cannot keep a stale picture. UPDATE_SCREENSHOTS=1
 * rewrites every one and reports nothing.
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string | undefined> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = `${SCREENSHOTS}${name}.png`;
  // From the top: a page left scrolled (by a click low on it) gets its masks drawn off their elements.
  await page.evaluate('window.scrollTo(0, 0)');
  const taken = await page.screenshot({
    fullPage,
    animations: 'disabled',
    caret: 'hide',
    mask: [page.locator('main code.id, main time')],
    maskColor: '#c9ced6',
  });
  const update = process.env.UPDATE_SCREENSHOTS === '1';
  if (update || !existsSync(file)) {
    writeFileSync(file, taken);
    return update ? undefined : `docs/screenshots/${name}.png is new: look at it and commit it`;
  }
  const diff = differingPixels(readFileSync(file), taken);
  if (diff && diff.differ / diff.of <= TOLERANCE) return undefined;
  writeFileSync(file, taken);
  const how = diff
    ? `${diff.differ} of ${diff.of} pixels (${((diff.differ / diff.of) * 100).toFixed(2)}%) differ`
    : 'its size changed';
  return `docs/screenshots/${name}.png: ${how}; rewritten, look at it and commit it`;
}
