import { CoinApiError, createClient } from '@coin/sdk';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  checkPage,
  go,
  newPage,
  PASSWORD,
  page,
  signIn,
  signUp,
  stack,
  useDashboard,
} from './support/dashboard.ts';

useDashboard();

// Fixed data (this file's stack is its own): the screenshots stay the same run to run.
const OWNER = 'owner@team.example';
const FINANCE = 'finance@team.example';
const SUPPORT = 'support@team.example';
const MEMBER_PASSWORD = 'a long member password';
const ADA = '7e3c1f00-5b2a-4c1d-9e8f-000000000001';
let finance: Page;
let support: Page;

/** The owner invites `email` as `role`; the invitee opens the link on their own page and joins. */
async function inviteAndJoin(email: string, role: string): Promise<Page> {
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('Their e-mail').fill(email);
  await form.getByLabel('Their role').selectOption(role);
  await form.getByRole('button', { name: 'Send the invitation' }).click();
  await page.getByText(`Invitation sent to ${email} as ${role}.`).waitFor();
  const link = await page
    .getByRole('status')
    .filter({ hasText: `The link for ${email}` })
    .locator('code')
    .textContent();
  const url = new URL(link!);
  const invitee = await newPage();
  await invitee.goto(`${url.pathname}${url.hash}`);
  const accept = invitee.getByRole('form', { name: 'Accept the invitation' });
  await accept.getByLabel('Choose a password').fill(MEMBER_PASSWORD);
  await accept.getByLabel('Confirm password').fill(MEMBER_PASSWORD);
  await accept.getByRole('button', { name: 'Join the team' }).click();
  await invitee.getByText('Welcome: you are a member.').waitFor();
  await signIn(email, MEMBER_PASSWORD, invitee);
  return invitee;
}

describe('a team in the dashboard', () => {
  it('the owner invites a finance member and a support member, who join by their links', async () => {
    await signUp(OWNER, 'Team Ltd');
    await go('Onboarding');
    await page
      .getByLabel('Users as JSON')
      .fill(JSON.stringify([{ userId: ADA, userData: { fullname: 'Ada Lovelace' } }]));
    await page.getByRole('button', { name: 'Onboard users' }).click();
    await page.getByText(/^Request received: 1 users/).waitFor();
    await go('Team');
    finance = await inviteAndJoin(FINANCE, 'finance');
    support = await inviteAndJoin(SUPPORT, 'support');
    await page.reload();
    const members = page.getByRole('region', { name: 'Members' });
    for (const [email, role] of [
      [OWNER, 'owner'],
      [FINANCE, 'finance'],
      [SUPPORT, 'support'],
    ])
      await members.getByRole('row', { name: new RegExp(`^${email} ${role} `) }).waitFor();
    await checkPage('team');
    // Neither member is offered the team or the API keys; only finance gets no audit log either.
    const nav = (p: Page) => p.getByRole('navigation', { name: 'Dashboard' });
    expect(await nav(finance).getByRole('link', { name: 'Team' }).count()).toBe(0);
    expect(await nav(support).getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await nav(support).getByRole('link', { name: 'Audit log' }).count()).toBe(0);
  });

  it('the finance member reverses a transfer and sets the issuance limit', async () => {
    await go('Users');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    for (const [coins, narration] of [
      ['30', 'order 77'],
      ['10', 'order 78'],
    ]) {
      await page.getByLabel('Coins to give').fill(coins);
      await page.getByLabel('Narration (give)').fill(narration);
      await page.getByRole('button', { name: 'Give coins' }).click();
      await page.getByText(`Gave ${coins} coins.`).waitFor();
    }

    await go('Users', finance);
    await finance.getByRole('link', { name: 'Ada Lovelace' }).click();
    await finance.getByRole('button', { name: 'Reverse 30 coins: order 77' }).click();
    const dialog = finance.getByRole('dialog', { name: 'Reverse 30 coins?' });
    await dialog.getByLabel('Reason (kept with the reversal)').fill('order returned');
    await dialog.getByRole('button', { name: 'Reverse 30 coins' }).click();
    await finance.getByText('Reversed: 30 coins moved back.').waitFor();
    await expect.poll(() => finance.getByTestId('balance').textContent()).toBe('10 coins');

    await go('Treasury', finance);
    const form = finance.getByRole('form', { name: 'Set the issuance limit' });
    await form.getByLabel(/Most coins your users may hold/).fill('5000');
    await form.getByRole('button', { name: 'Set the limit' }).click();
    await form.getByText('The limit is 5,000 coins.').waitFor();
  });

  it('the support member reads the user but is refused the reversal, in the page and through the API', async () => {
    await go('Users', support);
    await support.getByRole('link', { name: 'Ada Lovelace' }).click();
    await expect.poll(() => support.getByTestId('balance').textContent()).toBe('10 coins');
    const history = support.getByRole('region', { name: 'History' });
    await history.getByRole('cell', { name: 'credit, reversed' }).waitFor();
    await history
      .getByText("Your role (support) cannot reverse entries: that needs the 'coins' permission.")
      .waitFor();
    expect(await support.getByRole('button', { name: 'Give coins' }).isDisabled()).toBe(true);
    expect(await support.getByRole('button', { name: 'Reverse 10 coins: order 78' }).isDisabled()).toBe(true);
    await checkPage('user-support', support);

    // The API refuses the same member, whatever the page offers.
    const sdk = createClient({ baseUrl: stack.url });
    const { tokens } = await sdk.login({ email: SUPPORT, password: MEMBER_PASSWORD });
    const asSupport = createClient({ baseUrl: stack.url, credentials: { token: () => tokens.accessToken } });
    const { data } = await asSupport.getUserTransactions({ userId: ADA });
    const refusal = await asSupport
      .reverseTransfer({
        ledgerEntryId: data.find((e) => e.narration === 'order 78')!.id,
        reason: 'support tries',
      })
      .catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(CoinApiError);
    expect(refusal).toMatchObject({ status: 403, error: "This credential lacks the 'coins' permission" });
  });

  it('the audit log shows each action with its member, filtered by member and action', async () => {
    // The owner moves the support member to viewer.
    await go('Team');
    await page.getByLabel(`Role of ${SUPPORT}`, { exact: true }).selectOption('viewer');
    const roleChange = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes('/api/v1/ufel/partners/members/'),
    );
    await page.getByRole('button', { name: `Change role of ${SUPPORT}` }).click();
    // A role change needs a recent password: past a few minutes since sign-in, the page asks again.
    if ((await roleChange).status() !== 200) {
      const confirm = page.getByRole('dialog', { name: 'Confirm with your password' });
      await confirm.getByLabel('Your password', { exact: true }).fill(PASSWORD);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await confirm.waitFor({ state: 'hidden' });
    }
    await page
      .getByRole('region', { name: 'Members' })
      .getByRole('row', { name: new RegExp(`^${SUPPORT} viewer `) })
      .waitFor();
    await go('Audit log');
    const entries = page.getByRole('table', { name: 'Audit entries' });
    const expected = [
      [FINANCE, 'setTreasury'],
      [FINANCE, 'reverseTransfer'],
      [OWNER, 'inviteMember'],
      [OWNER, 'updateMemberRole'],
    ];
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh entries' }).click();
          const rows = await entries.getByRole('row').allTextContents();
          return expected.every(([who, action]) => rows.some((r) => r.includes(who) && r.includes(action)));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const filter = page.getByRole('form', { name: 'Filter the audit log' });
    await filter.getByLabel('Member').selectOption({ label: FINANCE });
    await filter.getByLabel('Action').selectOption('reverseTransfer');
    await filter.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => entries.getByRole('row').count()).toBe(2);
    await entries.getByRole('row', { name: new RegExp(`${FINANCE} reverseTransfer`) }).waitFor();
    await checkPage('audit-log');
    await go('Treasury');
    await page
      .getByRole('table', { name: 'Changes of the issuance limit' })
      .getByRole('row', { name: new RegExp(FINANCE) })
      .waitFor();
    await checkPage('treasury-history');
  });
});
