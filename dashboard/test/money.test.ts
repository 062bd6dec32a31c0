import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkPage, go, page, signUp, useDashboard } from './support/dashboard.ts';

useDashboard();

// Fixed ids and names: the stack's databases are new for this file, and fixed data keep the
// screenshots (users listed by id when onboarded together) the same from run to run.
const id = (n: number) => `0b8f5e1c-4a7e-4d9b-9a59-00000000000${n}`;
const PEOPLE = [
  [id(1), 'Ada Lovelace', 'ada'],
  [id(2), 'Grace Hopper', 'grace'],
  [id(3), 'Alan Turing', 'alan'],
  [id(4), 'Katherine Johnson', 'kj'],
];
const CSV = `userId,fullname,tag\n${PEOPLE.map((p) => p.join(',')).join('\n')}\n`;
const csvFile = { name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) };

/** Clicks `button` until the request list shows `count` of `name` (onboarding runs in the background). */
async function untilShown(name: string | RegExp, role: 'cell' | 'button' = 'cell', count = 1) {
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh requests' }).click();
        return page.getByRole(role, { name }).count();
      },
      { timeout: 15_000 },
    )
    .toBe(count);
}

describe('the money actions in the dashboard', () => {
  it('checks each onboarding row against the contract before sending, and downloads the failures as CSV', async () => {
    await signUp('ops@dash.example');
    await go('Onboarding');
    const rows = [
      { userId: 'not-a-uuid', userData: {} },
      { userId: id(9), userData: { name: 'x'.repeat(20_000) } },
      { userId: id(9), userData: [] },
    ];
    await page.getByLabel('Users as JSON').fill(JSON.stringify(rows));
    await page.getByRole('button', { name: 'Onboard users' }).click();
    const problems = page.getByRole('list', { name: 'Problems in the users' }).getByRole('listitem');
    await expect
      .poll(() => problems.allTextContents())
      .toEqual([
        expect.stringMatching(/^Row 1: userId /),
        expect.stringMatching(/^Row 2: userData must be at most 16384 bytes/),
        expect.stringMatching(/^Row 3: userData /),
      ]);
    await page.getByText('Nothing was sent: 3 problems in the users.').waitFor();
    expect(await page.getByRole('button', { name: /^Show the .* failures/ }).count()).toBe(0);

    await page.getByLabel('Users as JSON').fill('');
    await page.getByLabel(/Or a CSV file/).setInputFiles(csvFile);
    await page.getByRole('button', { name: 'Onboard users' }).click();
    await page.getByText(/^Request received: 4 users; it is the first/).waitFor();
    await untilShown('done');
    await page.getByLabel(/Or a CSV file/).setInputFiles(csvFile);
    await page.getByRole('button', { name: 'Onboard users' }).click();
    await untilShown(/^Show the 4 failures of /, 'button');
    await page.getByRole('button', { name: /^Show the 4 failures of / }).click();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the failures as CSV' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^onboarding-failures-[0-9a-f-]{36}\.csv$/);
    const lines = readFileSync((await file.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('userId,reason');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(PEOPLE.map((p) => p[0]));
    await checkPage('onboarding');
  });

  it('finds users by name, tag and id prefix, a page at a time', async () => {
    await go('Users');
    const table = page.getByRole('region', { name: 'Find users' }).getByRole('table');
    await page.getByText('4 users, newest first.').waitFor();
    const search = async (text: string) => {
      await page.getByLabel('Id prefix, tag or name').fill(text);
      await page.getByRole('button', { name: 'Search' }).click();
    };
    await search('grace');
    await page.getByText('1 users match “grace”.').waitFor();
    await table.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await search('KJ');
    await table.getByRole('link', { name: 'Katherine Johnson' }).waitFor();
    await search('0b8f5e1c');
    await page.getByText('4 users match “0b8f5e1c”.').waitFor();
    await search('a');
    await page.getByText('4 users match “a”.').waitFor();
    await checkPage('users');
  });

  it("shows a user's balance and history, and reverses an entry after a reason and a confirmation", async () => {
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('0 coins');
    await expect.poll(() => page.getByTestId('pending').textContent()).toBe('0 coins');
    for (const [coins, narration] of [
      ['40', 'welcome bonus'],
      ['15', 'order 1042'],
    ]) {
      await page.getByLabel('Coins to give').fill(coins);
      await page.getByLabel('Narration (give)').fill(narration);
      await page.getByRole('button', { name: 'Give coins' }).click();
      await page.getByText(`Gave ${coins} coins.`).waitFor();
    }
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('55 coins');

    // The reason is required; Cancel changes nothing.
    await page.getByRole('button', { name: 'Reverse 15 coins: order 1042' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reverse 15 coins?' });
    await dialog.getByRole('button', { name: 'Reverse 15 coins' }).click();
    await dialog.getByText('give the reason for the reversal').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('55 coins');
    await page.getByRole('button', { name: 'Reverse 15 coins: order 1042' }).click();
    await dialog.getByLabel('Reason (kept with the reversal)').fill('order cancelled');
    await checkPage('user-reversal', page, false);
    await dialog.getByRole('button', { name: 'Reverse 15 coins' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Reversed: 15 coins moved back.').waitFor();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('40 coins');
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('cell', { name: 'credit, reversed' }).waitFor();
    await history.getByRole('cell', { name: 'debit, reversal' }).waitFor();
    // Neither the reversed entry nor the reversal offers a reversal now.
    expect(await history.getByRole('button', { name: /^Reverse / }).count()).toBe(1);
    await checkPage('user');
  });

  it('shows the treasury and sets the issuance limit, with the API refusal beside the field', async () => {
    await go('Treasury');
    await expect.poll(() => page.getByTestId('outstanding').textContent()).toBe('40 coins');
    await expect.poll(() => page.getByTestId('limit').textContent()).toBe('No limit');
    const form = page.getByRole('form', { name: 'Set the issuance limit' });
    const field = form.getByLabel(/Most coins your users may hold/);
    await field.fill('-5');
    await form.getByRole('button', { name: 'Set the limit' }).click();
    await form.getByText(/^issuanceLimit /).waitFor();
    await field.fill('1000');
    await form.getByRole('button', { name: 'Set the limit' }).click();
    await form.getByText('The limit is 1,000 coins.').waitFor();
    await expect.poll(() => page.getByTestId('limit').textContent()).toBe('1,000 coins');
    // The change reaches the audit log through an event: the page is opened again until it lists it.
    const changes = page.getByRole('table', { name: 'Changes of the issuance limit' });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Treasury' }).waitFor();
          return changes.getByRole('row', { name: /setTreasury/ }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await checkPage('treasury');
  });

  it('downloads the ledger and verifies its hash chain in the browser; a changed file is found broken', async () => {
    await go('Ledger');
    // Entries are sealed into the chain shortly after they commit: 3 (two gifts and the reversal).
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Verify the hash chain' }).click();
          return page.getByText(/the chain holds\. \d+ entries/).textContent();
        },
        { timeout: 15_000 },
      )
      .toMatch(/The ledger: the chain holds\. 3 entries verified/);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the ledger' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^ledger-export-\d{4}-\d\d-\d\d\.json$/);
    const entries = JSON.parse(readFileSync((await file.path())!, 'utf8'));
    expect(entries.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3]);
    await page.getByText('The downloaded export: the chain holds. 3 entries verified').waitFor();
    await checkPage('ledger');

    entries[1].narration = 'order 1043';
    await page.getByLabel('An export file (JSON)').setInputFiles({
      name: 'changed.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(entries)),
    });
    await page.getByText('changed.json: the chain is broken at position 2', { exact: false }).waitFor();
    await page.getByText('its content does not match its hash').waitFor();
  });

  it('draws the month in charts with axes, values and names, and a table behind each', async () => {
    await go('Overview');
    // The leaderboard follows the ledger's events: the page is opened again until Ada is on it.
    const earners = page.getByRole('figure', { name: /^Top earners, / });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
          return earners.getByRole('img').count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await earners.getByText(/: the figures$/).click();
    await earners.getByRole('row', { name: /^Ada Lovelace \d+ coins$/ }).waitFor();
    const days = page.getByRole('figure', { name: /^Transfers per day, / });
    await days.getByRole('img').waitFor();
    await days.getByText(/: the figures$/).click();
    await days
      .getByRole('row', { name: /^\d+ [1-9]\d* transfers$/ })
      .first()
      .waitFor();
    // The screenshot shows the charts, their tables folded again.
    await days.getByText(/: the figures$/).click();
    await earners.getByText(/: the figures$/).click();
    await checkPage('overview');
  });
});
