import { apiKey, createClient } from '@coin/sdk';
import { startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/browser.ts';
import { checkPage, context, go, page, stack, useDashboard } from './support/dashboard.ts';

useDashboard({
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_RETRY_MAX_MS: '50',
  WEBHOOK_MAX_ATTEMPTS: '2',
  WEBHOOK_POLL_MS: '20',
});

let receiver: WebhookReceiver;
// Fixed: the stack's databases are this file's own, and the screenshots stay the same run to run.
const email = 'dev@dash.example';
const password = 'correct horse battery staple';
const users = [1, 2, 3].map((n) => `5c1d7a52-31a4-4f7e-8d7c-00000000000${n}`);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.respondWith(() => 500);
});

afterAll(async () => {
  await receiver?.close();
});

/** A page the money suite screenshots: here only its axe check. */
async function checkAxe(name: string) {
  expect(await seriousViolations(page), name).toEqual([]);
}

describe('partner dashboard in Chromium', () => {
  it('signs up, keeps the session in an HttpOnly SameSite=Strict cookie only, under a strict CSP', async () => {
    const res = await page.goto('/dashboard/sign-up');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res?.headers()['content-security-policy']).not.toContain('unsafe-inline');
    await page.getByRole('heading', { name: 'Create a partner account' }).waitFor();
    await checkPage('sign-up');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Application name').fill('Dash app');
    await form.getByLabel('Business name').fill('Dash Ltd');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByLabel('Confirm password').fill(password);
    await form.getByLabel('Redirect URL', { exact: true }).fill('https://dash.example/r');
    await form.getByLabel('Web redirect URL').fill('https://dash.example/w');
    await form.getByLabel('Mobile redirect URL').fill('dash://cb');
    await form.getByLabel('User details URL').fill('not a url');
    await form.getByRole('button', { name: 'Create account' }).click();
    // The API's own validation text, beside the field it names.
    await form.getByText(/^userDetailsUrl must /).waitFor();
    await form.getByLabel('User details URL').fill('https://dash.example/users');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'coin_refresh');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard/session' });
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([
      0,
      0,
      '',
    ]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });

  it('creates an API key, shows its secret once with a copy button, and revokes it', async () => {
    await go('API keys');
    await page.getByLabel('Key name').fill('backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    // The sign-up's password is recent (step-up) for a few minutes; past them the form asks again.
    const newKey = page.getByTestId('new-key');
    const askedAgain = page.getByText(/^This operation needs a recent password/);
    await newKey.or(askedAgain).first().waitFor();
    if (await askedAgain.isVisible()) {
      await page.getByLabel('Your password, to confirm this change').fill(password);
      await page.getByRole('button', { name: 'Create key' }).click();
    }
    const key = await newKey.textContent();
    expect(key).toMatch(/^ck_live_/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    const byKey = createClient({ baseUrl: stack.url, credentials: apiKey(key!) });
    expect((await byKey.getMe()).email).toBe(email);
    await checkPage('api-keys');
    await page.getByRole('button', { name: 'Revoke backend' }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
  });

  it('onboards users from a CSV file and shows the request complete', async () => {
    await go('Onboarding');
    const csv = `userId,fullname,city\n${users.map((u, i) => `${u},User ${i},"Lagos, NG"`).join('\n')}\n`;
    await page
      .getByLabel(/Or a CSV file/)
      .setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Onboard users' }).click();
    await page.getByText(/^Request received: 3 users; it is the first/).waitFor();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh requests' }).click();
          return page.getByRole('cell', { name: 'done' }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await page.getByText('3 of 3').waitFor();
    // The same users again: each fails as already onboarded, listed under the request.
    await page
      .getByLabel(/Or a CSV file/)
      .setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Onboard users' }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh requests' }).click();
          return page.getByRole('button', { name: /^Show the 3 failures of / }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await page.getByRole('button', { name: /^Show the 3 failures of / }).click();
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: /^Failures of / })
          .getByRole('listitem')
          .count(),
      )
      .toBe(3);
    await checkAxe('onboarding');
  });

  it('creates a rule (showing the API validation beside the field) and rewards a user by it', async () => {
    await go('Rules');
    const form = page.getByRole('form', { name: 'Create a rule' });
    await form.getByLabel('Name (lower case)').fill('First Order');
    await form.getByLabel('Coins per reward').fill('10');
    await form.getByLabel('Most participants').fill('2');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await form.getByText('name must be lower case').waitFor();
    await form.getByLabel('Name (lower case)').fill('first order');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('cell', { name: 'first order', exact: true }).waitFor();
    const reward = page.getByRole('form', { name: 'Reward a user' });
    await reward.getByLabel('User id').fill(users[0]);
    await reward.getByLabel('Rule name').fill('first order');
    await reward.getByRole('button', { name: 'Reward user' }).click();
    await reward.getByText('Rewarded 10 coins.').waitFor();
    await page.reload();
    await page.getByRole('cell', { name: '1 of 2', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Deactivate first order' }).click();
    await page.getByRole('button', { name: 'Activate first order' }).waitFor();
    await checkPage('rules');
  });

  it('transfers to and from a user and shows the balance and history change', async () => {
    await go('Users');
    await page.getByLabel('Id prefix, tag or name').fill(users[0]);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'User 0' }).click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('10 coins');
    await page.getByLabel('Coins to give').fill('25');
    await page.getByRole('button', { name: 'Give coins' }).click();
    await page.getByText('Gave 25 coins.').waitFor();
    await page.getByLabel('Coins to take').fill('5');
    await page.getByRole('button', { name: 'Take coins' }).click();
    await page.getByText('Took 5 coins.').waitFor();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('30 coins');
    await expect.poll(() => page.getByRole('region', { name: 'History' }).getByRole('row').count()).toBe(4);
    await checkAxe('user');
  });

  it('shows the transfers on the coin and points leaderboards, and a user position', async () => {
    await go('Leaderboards');
    const board = page.getByRole('table', { name: 'Coin leaderboard' });
    await expect
      .poll(
        async () => {
          await page.reload();
          return board.getByRole('row', { name: new RegExp(users[0]) }).textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('35');
    // Named by their userData name, not only by id.
    await expect
      .poll(() => board.getByRole('row', { name: new RegExp(users[0]) }).textContent())
      .toContain('User 0');
    await page
      .getByRole('table', { name: 'Points leaderboard' })
      .getByRole('row', { name: new RegExp(users[0]) })
      .waitFor();
    await page.getByRole('form', { name: "Find a user's position" }).getByLabel('User id').fill(users[0]);
    await page.getByRole('button', { name: 'Find position' }).click();
    await page.getByText(/Coins: #1 with 35\.00 coins.*Points: #1 with 10 points/).waitFor();
    await checkPage('leaderboards');
  });

  it('creates a tier and moves a user to it', async () => {
    await go('Tiers');
    await page.getByLabel('Tier name').fill('gold');
    await page.getByLabel('Rank').fill('1');
    await page.getByRole('button', { name: 'Create tier' }).click();
    await page.getByRole('cell', { name: 'gold' }).waitFor();
    const move = page.getByRole('form', { name: 'Move a user to a tier' });
    await move.getByLabel('User id').fill(users[1]);
    await move.getByLabel('Tier').selectOption({ label: 'gold' });
    await move.getByRole('button', { name: 'Move user' }).click();
    await move.getByText('User moved.').waitFor();
    await checkPage('tiers');
  });

  it('sets a webhook, lists the failed delivery with its attempts, and redelivers it', async () => {
    await go('Webhooks');
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByLabel('TREASURY_LOW').uncheck();
    // The page draws itself again when the deliveries list loads or its filter changes; what was typed stays.
    await page.getByLabel('Show').selectOption('pending');
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe(receiver.url);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await expect
      .poll(() => page.getByTestId('webhook-secret').textContent(), { timeout: 15_000 })
      .toMatch(/^whsec_/);
    // The kinds saved are the ones ticked when the page is opened again.
    await go('Users');
    await go('Webhooks');
    expect(await page.getByLabel('TREASURY_LOW').isChecked()).toBe(false);
    expect(await page.getByLabel('USER_ONBOARDING').isChecked()).toBe(true);
    await go('Onboarding');
    const fourth = '5c1d7a52-31a4-4f7e-8d7c-000000000004';
    await page.getByLabel('Users as JSON').fill(JSON.stringify([{ userId: fourth, userData: {} }]));
    await page.getByRole('button', { name: 'Onboard users' }).click();
    await page.getByText(/received: 1 users; it is the first/).waitFor();
    await go('Webhooks');
    await page.getByLabel('Show').selectOption('failed');
    // Ours is the delivery whose two attempts reached the receiver and got its 500s (the CSV requests
    // came before a URL was set: nothing was recorded for them).
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh deliveries' }).click();
          return page.getByRole('cell', { name: '500', exact: true }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    await page.getByRole('heading', { name: 'USER_ONBOARDING · failed · 2 attempts' }).first().waitFor();
    await checkPage('webhooks');
    receiver.respondWith(() => 200);
    await page
      .getByRole('button', { name: /^Redeliver / })
      .first()
      .click();
    await page.getByLabel('Show').selectOption('delivered');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh deliveries' }).click();
          return page.getByRole('heading', { name: 'USER_ONBOARDING · delivered · 3 attempts' }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
  });

  it('shows the month on the overview, and signs out', async () => {
    await go('Overview');
    await expect.poll(() => page.getByTestId('issued').textContent()).toBe('35');
    await expect.poll(() => page.getByTestId('redeemed').textContent()).toBe('5');
    // The fourth user's request (the webhooks test) may still be in processing when the page loads,
    // and the overview loads once: it is opened again until it counts them.
    await expect
      .poll(
        async () => {
          const shown = await page.getByTestId('users').textContent();
          if (shown !== '4') {
            await go('Users');
            await go('Overview');
          }
          return shown;
        },
        { timeout: 15_000 },
      )
      .toBe('4');
    await expect.poll(() => page.getByTestId('active-rules').textContent()).toBe('0');
    await page.getByRole('img', { name: /Transfers per day/ }).waitFor();
    await checkAxe('overview');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkPage('sign-in');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
});
