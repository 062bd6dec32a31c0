import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startLeaderboard } from '@coin/leaderboard';
import { startOnboarding } from '@coin/onboarding';
import { startRules } from '@coin/rules';
import { type Stack, startStack } from '@coin/testing';
import { launchChromium } from '@coin/testing/browser';
import { startWallet } from '@coin/wallet';
import { startWebhooks } from '@coin/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideSamples, runSamples } from './samples.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCREENSHOTS = `${ROOT}docs/screenshots/`;
let stack: Stack;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Awaited<ReturnType<typeof browser.newPage>>;

beforeAll(async () => {
  // make test builds the site once (make docs); a run of this file alone builds it when missing.
  if (!existsSync(`${ROOT}docs/site/dist/index.html`))
    execFileSync('npm', ['run', 'docs:build'], { cwd: ROOT, stdio: 'ignore' });
  stack = await startStack({
    services: {
      identity: startIdentity,
      onboarding: startOnboarding,
      rules: startRules,
      wallet: startWallet,
      leaderboard: startLeaderboard,
      webhooks: startWebhooks,
    },
    gateway: startGateway,
    env: { AUTH_RATE_LIMIT_MAX: '1000', WEBHOOK_POLL_MS: '20', WEBHOOK_PARTNER_CACHE_MS: '0' },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Kept in docs/screenshots/ when UPDATE_SCREENSHOTS=1, as the dashboard's are. */
async function screenshot(name: string) {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

describe('the documentation site at /docs', () => {
  it('opens on its home page, and every internal link of every page reaches a page and its anchor', async () => {
    const base = new URL('/docs/', stack.url);
    const visited = new Map<string, Set<string>>();
    const wanted: { from: string; page: string; id: string }[] = [];
    const broken: string[] = [];
    const queue = [base.href];
    const queued = new Set(queue);
    while (queue.length) {
      const url = queue.shift()!;
      const res = await page.goto(url);
      if (!res?.ok()) {
        broken.push(`${url}: ${res?.status()}`);
        continue;
      }
      if (url === base.href) {
        expect(await page.locator('.VPHero .name').innerText()).toBe('Coin rewards API');
        await screenshot('docs-home');
      }
      visited.set(url, new Set(await page.$$eval('[id]', (els) => els.map((e) => e.id))));
      // Redoc's page is one document of its own: its links are its menu's anchors.
      if (url.includes('/docs/api/')) continue;
      const links = await page.$$eval('a[href]', (as) =>
        as.map((a) => (a as unknown as { href: string }).href),
      );
      for (const link of links) {
        const target = new URL(link);
        if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) continue;
        const clean = target.href.replace(/#.*/, '');
        if (target.hash.length > 1)
          wanted.push({ from: url, page: clean, id: decodeURIComponent(target.hash.slice(1)) });
        if (queued.has(clean)) continue;
        queued.add(clean);
        if (/\.html$|\/$/.test(target.pathname)) queue.push(clean);
        else {
          const file = await page.request.get(clean);
          if (!file.ok()) broken.push(`${url} → ${clean}: ${file.status()}`);
        }
      }
    }
    for (const { from, page: target, id } of wanted)
      if (visited.has(target) && !visited.get(target)!.has(id))
        broken.push(`${from} → ${target}#${id}: no such anchor`);
    expect(broken).toEqual([]);
    expect(visited.size).toBeGreaterThan(20);
  }, 180_000);

  it('renders the API reference from openapi.json, and searches the guides offline', async () => {
    await page.goto(new URL('/docs/api/', stack.url).href);
    expect(await page.title()).toBe('Coin rewards and partner API reference');
    await page.getByText('rules', { exact: true }).first().click();
    await page.getByText('Create a reward rule').first().waitFor();
    expect(await page.locator('body').innerText()).toContain('Create a reward rule');
    await screenshot('docs-reference');
    await page.goto(new URL('/docs/partners/idempotency-and-retries.html', stack.url).href);
    await screenshot('docs-guide');
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('.VPLocalSearchBox input').fill('Idempotency-Key');
    await page.locator('.VPLocalSearchBox .result').first().waitFor();
    expect(await page.locator('.VPLocalSearchBox .result').count()).toBeGreaterThan(0);
  });

  it("runs every guide's sample against the stack, as shown on its page", async () => {
    const samples = guideSamples(ROOT);
    expect([...samples.keys()].length).toBeGreaterThanOrEqual(14);
    // The quick start sets up what the other guides' samples use.
    const quick = await runSamples(ROOT, samples.get('quick-start.md')!, { COIN: stack.url });
    for (const { sample, output } of quick) expect(output, sample.code).not.toContain('"status":"failed"');
    const login = await stack.api.post('/api/v1/ufel/partners/login', {
      email: 'dev@demo.example',
      password: 'correct horse battery',
    });
    const env = {
      COIN: stack.url,
      ACCESS_TOKEN: login.body.data.tokens.accessToken as string,
      USER_ID: '0b8f5e1c-4a7e-4d9b-9a59-2f1f0c7b6a11',
    };
    for (const [guide, list] of samples) {
      if (guide === 'quick-start.md') continue;
      const runs = await runSamples(ROOT, list, env);
      for (const { sample, output } of runs) {
        if (sample.expect) expect(output, `${guide}: ${sample.code}`).toContain(sample.expect);
        else expect(output, `${guide}: ${sample.code}`).not.toContain('"status":"failed"');
      }
      await page.goto(new URL(`/docs/partners/${guide.replace(/\.md$/, '.html')}`, stack.url).href);
      const shown = (await page.locator('.vp-doc').innerText()).replace(/\s+/g, ' ');
      for (const sample of list)
        expect(shown, guide).toContain(sample.code.split('\n')[0].replace(/\s+/g, ' ').trim());
    }
  }, 180_000);
});
