import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { startRules } from '@coin/rules';
import { type Stack, startStack } from '@coin/testing';
import { launchChromium } from '@coin/testing/browser';
import { startWallet } from '@coin/wallet';
import { startWebhooks } from '@coin/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserBundle, type PartnerProject, packAndInstall, runJourney } from './support/partner-project.ts';

/**
 * The SDK as a partner gets it: packed, installed from the tarball into an empty project outside
 * the workspace, type-checked in strict mode, and run against a stack on every supported Node and
 * in a browser bundle.
 */
let stack: Stack;
let project: PartnerProject;

beforeAll(async () => {
  [project, stack] = await Promise.all([
    packAndInstall(),
    startStack({
      services: {
        identity: startIdentity,
        onboarding: startOnboarding,
        rules: startRules,
        wallet: startWallet,
        webhooks: startWebhooks,
      },
      gateway: startGateway,
      env: { AUTH_RATE_LIMIT_MAX: '1000', WEBHOOK_POLL_MS: '20', WEBHOOK_PARTNER_CACHE_MS: '0' },
    }),
  ]);
  if (process.env.SDK_PACKAGE_LOG === '1') console.log(project.log.join('\n'));
}, 240_000);

afterAll(async () => {
  await project?.remove();
  await stack?.stop();
});

/** What the journey printed, step by step, the same on every Node. */
function expectJourney(lines: Record<string, unknown>[], nodeMajor: number) {
  const steps = Object.fromEntries(lines.map(({ step, ...rest }) => [step as string, rest]));
  expect(steps.registered).toMatchObject({ sdk: '1.0.0', node: expect.stringMatching(`^v${nodeMajor}\\.`) });
  expect(steps['logged in']).toEqual({ email: true });
  expect(steps['webhook set']).toEqual({ events: ['USER_ONBOARDING'] });
  expect(steps['webhook verified']).toEqual({ event: 'USER_ONBOARDING', sameRequest: true, failed: 0 });
  expect(steps.transferred).toEqual({ isExisting: false, replayIsExisting: true, sameEntry: true });
  expect(steps['key reused']).toEqual({ status: 422, appErrorCode: 'IDEMPOTENCY_CONFLICT' });
  expect(steps.balance).toEqual({ coins: 25.5 });
  expect(steps.rules).toEqual({ names: ['birthday', 'first purchase', 'referral'] });
}

describe('@coin/sdk as published', () => {
  it('packs the built package only: ESM, bundled types, README, CHANGELOG and LICENSE, zod its one dependency', async () => {
    const installed = `${project.dir}/node_modules/@coin/sdk`;
    const manifest = JSON.parse(await readFile(`${installed}/package.json`, 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(['zod']);
    expect(manifest.exports['.']).toMatchObject({ types: './dist/index.d.ts', default: './dist/index.js' });
    const packed = [...project.log[0].matchAll(/^npm notice [\d.]+k?B (\S+)$/gm)].map((m) => m[1]).sort();
    expect(packed).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
    expect(await readFile(`${installed}/LICENSE`, 'utf8')).toBe(
      await readFile(new URL('../../../LICENSE', import.meta.url), 'utf8'),
    );
  });

  it('runs a partner journey on Node 20, the oldest supported', async () => {
    const lines = await runJourney(project, ['/usr/bin/node'], stack.url);
    if (process.env.SDK_PACKAGE_LOG === '1') console.log(lines.map((l) => JSON.stringify(l)).join('\n'));
    expectJourney(lines, 20);
  });

  it('runs the same journey on Node 22 and 24', async () => {
    const node22 = ['npm', 'exec', '--yes', '--prefer-offline', '--package=node@22', '--', 'node'];
    expectJourney(await runJourney(project, node22, stack.url), 22);
    expectJourney(await runJourney(project, [process.execPath], stack.url), 24);
  }, 180_000);

  it('runs in a browser bundle: sign-up, login, rules by page and a verified webhook', async () => {
    const script = await browserBundle(project);
    expect(script).not.toMatch(/from ['"](node:|zod)/);
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const body = JSON.stringify({ event: 'USER_ONBOARDING', requestId: randomUUID(), failed: [] });
    const id = randomUUID();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64');
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    };

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // The partner's page on the gateway's origin (so its API calls are same-origin): the page and
      // its script come from here, every other request goes to the real gateway.
      await page.route(`${stack.url}/partner/**`, (route) =>
        route.request().url().endsWith('.js')
          ? route.fulfill({ contentType: 'text/javascript', body: script })
          : route.fulfill({
              contentType: 'text/html',
              body: '<!doctype html><title>partner</title><script type="module" src="/partner/app.js"></script>',
            }),
      );
      await page.goto(`${stack.url}/partner/`);
      await page.waitForFunction(() => 'partnerJourney' in globalThis);
      const email = `browser-${randomUUID()}@partner.example`;
      const result = await page.evaluate(
        ([email, webhook]) =>
          (globalThis as unknown as { partnerJourney: (...a: unknown[]) => Promise<unknown> }).partnerJourney(
            email,
            webhook,
          ),
        [email, { secret, headers, body }] as const,
      );
      expect(result).toEqual({
        sdk: '1.0.0',
        me: email,
        rules: ['alpha', 'beta', 'gamma'],
        event: 'USER_ONBOARDING',
      });
    } finally {
      await browser.close();
    }
  });
});
