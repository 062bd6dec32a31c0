import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startLeaderboard } from '@coin/leaderboard';
import { startOnboarding } from '@coin/onboarding';
import { startRules } from '@coin/rules';
import { type Stack, startStack } from '@coin/testing';
import { launchChromium } from '@coin/testing/browser';
import { startWallet } from '@coin/wallet';
import { startWebhooks } from '@coin/webhooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { screenshot, seriousViolations } from './browser.ts';

export let stack: Stack;
export let context: BrowserContext;
export let page: Page;
let browser: Browser;

/**
 * A whole stack and one Chromium page on it, for a file's tests; the page renders in UTC and en-US
 * at one size, so its screenshots compare across machines and days.
 */
export function useDashboard(env: Record<string, string> = {}) {
  beforeAll(async () => {
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
      env: { AUTH_RATE_LIMIT_MAX: '1000', ...env },
    });
    browser = await launchChromium();
    context = await browser.newContext({
      baseURL: stack.url,
      viewport: { width: 1200, height: 900 },
      timezoneId: 'UTC',
      locale: 'en-US',
      reducedMotion: 'reduce',
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
}

/** A second browser session beside the first (its own cookies): another member signed in apart. */
export async function newPage(): Promise<Page> {
  const other = await context.browser()!.newContext({
    baseURL: stack.url,
    viewport: { width: 1200, height: 900 },
    timezoneId: 'UTC',
    locale: 'en-US',
    reducedMotion: 'reduce',
  });
  const opened = await other.newPage();
  opened.setDefaultTimeout(8_000);
  return opened;
}

/** Signs in on `on` through the sign-in form. */
export async function signIn(email: string, password: string, on: Page = page) {
  await on.goto('/dashboard/');
  const form = on.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await on.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/** Each page: no serious or critical axe violation, and its screenshot as committed (soft: the test goes on). */
export async function checkPage(name: string, on: Page = page, fullPage = true) {
  const violations = await seriousViolations(on);
  console.log(`axe ${name}: ${violations.length} serious or critical violations`);
  expect(violations, name).toEqual([]);
  expect.soft(await screenshot(on, name, fullPage), `screenshot ${name}`).toBeUndefined();
}

export async function go(link: string, on: Page = page) {
  await on.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: link }).click();
  await on.getByRole('heading', { level: 1, name: link }).waitFor();
}

export const PASSWORD = 'correct horse battery staple';

/** Fills the sign-up form (the API refuses a bad `userDetailsUrl`, the first step shows it). */
export async function signUp(email: string, business = 'Dash Ltd', on: Page = page) {
  await on.goto('/dashboard/sign-up');
  const form = on.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('Application name').fill('Dash app');
  await form.getByLabel('Business name').fill(business);
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('Confirm password').fill(PASSWORD);
  await form.getByLabel('Redirect URL', { exact: true }).fill('https://dash.example/r');
  await form.getByLabel('Web redirect URL').fill('https://dash.example/w');
  await form.getByLabel('Mobile redirect URL').fill('dash://cb');
  await form.getByLabel('User details URL').fill('https://dash.example/users');
  await form.getByRole('button', { name: 'Create account' }).click();
  await on.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}
