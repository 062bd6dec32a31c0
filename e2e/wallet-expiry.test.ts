import { randomUUID } from 'node:crypto';
import { eventually, type Stack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { BALANCE, FROM_USER, HISTORY, TO_USER, transfer } from './support/wallet.ts';

/**
 * Expiry by lots through the gateway: a credit with a validity opens a lot; spending takes from the
 * lots that expire first; what is left at the end expires once (an `expiry` entry, COINS_EXPIRED),
 * even when the expiry job and debits reach it at the same instant; COINS_EXPIRING comes before.
 */

const TREASURY = '/api/v1/laas/coins/treasury';

let stack: Stack;
let partner: RegisteredPartner;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'leaderboard', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
    WALLET_EXPIRY_INTERVAL_MS: '50',
    WALLET_EXPIRY_WARNING_DAYS: '1',
    WALLET_EXPIRY_WARNING_INTERVAL_MS: '100',
  });
  receiver = await startWebhookReceiver();
  partner = await registerAndLogin(stack.api);
  await partnerClient(stack.api, partner).setWebhook({ url: receiver.url });
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const token = () => partner.accessToken;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function credit(userId: string, coins: number, validity?: Record<string, unknown>) {
  const res = await transfer(stack.api, TO_USER, token(), { userId, coins, validity }, randomUUID());
  expect(res.status).toBe(200);
  return res.body.data.coinsLedger as { id: string; expiresAt?: string; balanceAfter: number };
}

function spend(userId: string, coins: number) {
  return transfer(stack.api, FROM_USER, token(), { userId, coins }, randomUUID());
}

async function balance(userId: string) {
  const res = await stack.api.get(BALANCE, { token: token(), query: { userId } });
  expect(res.status).toBe(200);
  return res.body.data as { available: number; expiring: { coins: number; expiresAt: string }[] };
}

async function history(userId: string) {
  const res = await stack.api.get(HISTORY, { token: token(), query: { userId, limit: 100 } });
  expect(res.status).toBe(200);
  return (res.body.data.data as Record<string, unknown>[]).reverse();
}

/** Coins the user's debits took in the first `n` entries of their history (oldest first). */
const spentBefore = (entries: Record<string, unknown>[], n: number) =>
  entries
    .slice(0, n)
    .filter((e) => e.transactionType === 'user_partner_transfer')
    .reduce((sum, e) => sum + Number(e.coins), 0);

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

describe('expiry by lots through the gateway', () => {
  it('spends the lots that expire first, then coins without expiry; balance and history say what expires when', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const late = await credit(userId, 10, { days: 30 });
    const soon = await credit(userId, 10, { expiresAt: inMs(3_600_000) });
    await credit(userId, 5);
    expect(soon.expiresAt).toBeDefined();
    expect(Date.parse(late.expiresAt!) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    expect((await spend(userId, 15)).status).toBe(200);
    const after = await balance(userId);
    expect(after.available).toBe(10);
    // The soonest lot went first (10), then 5 of the 30-day lot; the 5 without expiry are untouched.
    expect(after.expiring).toEqual([{ coins: 5, expiresAt: late.expiresAt }]);
    const entries = await history(userId);
    expect(entries.map((e) => e.expiresAt ?? null)).toEqual([late.expiresAt, soon.expiresAt, null, null]);
  });

  it("opens lots with the partner's default validity, and refuses a validity in the past or with pending", async () => {
    const put = await stack.api.put(TREASURY, { defaultValidity: { endOf: 'month' } }, { token: token() });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ defaultValidity: { endOf: 'month' }, expired: 0 });
    try {
      const [userId] = await onboardUsers(stack.api, token(), 1);
      const entry = await credit(userId, 3);
      const now = new Date();
      expect(entry.expiresAt).toBe(
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      );

      const past = await transfer(stack.api, TO_USER, token(), {
        userId,
        coins: 1,
        validity: { expiresAt: inMs(-1000) },
      });
      expect(past.status).toBe(400);
      expect(past.body.data.error).toBe('validity.expiresAt must be in the future');
      const both = await transfer(stack.api, TO_USER, token(), {
        userId,
        coins: 1,
        validity: { days: 1 },
        pending: { expiresInSeconds: 60 },
      });
      expect(both.status).toBe(400);
      expect(both.body.data.error).toContain('validity must not be given with pending');
    } finally {
      await stack.api.put(TREASURY, { defaultValidity: null }, { token: token() });
    }
  });

  it('expires a lot once while debits race its expiry: spent + expired is the lot, each entry once', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const expiresAt = inMs(1500);
    const lot = await credit(userId, 10, { expiresAt });
    await credit(userId, 5);
    // Debits of 1 every 40 ms from before the lot's expiry to after it, while the job runs every 50 ms.
    const start = Date.parse(expiresAt) - 200;
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await sleepUntil(start + i * 40);
        return spend(userId, 1);
      }),
    );
    for (const a of answers) {
      expect([200, 422]).toContain(a.status);
      if (a.status === 422) expect(a.body.data.appErrorCode).toBe('INSUFFICIENT_BALANCE');
    }
    const spent = answers.filter((a) => a.status === 200).length;

    await eventually(async () => ((await balance(userId)).expiring.length === 0 ? true : undefined));
    await eventually(async () => {
      const entries = await history(userId);
      // Either the debits took the whole lot before its expiry, or what they left expired.
      const expiries = entries.filter((e) => e.transactionType === 'expiry');
      return expiries.length === 1 || spentBefore(entries, entries.length) >= 10 ? true : undefined;
    });
    const entries = await history(userId);
    const at = entries.findIndex((e) => e.transactionType === 'expiry');
    const expiries = entries.filter((e) => e.transactionType === 'expiry');
    expect(expiries.length).toBeLessThanOrEqual(1);
    // The debits before the expiry entry (in seq order) took from the lot first; the rest expired once.
    const before = spentBefore(entries, at === -1 ? entries.length : at);
    const expired = expiries.length ? Number(expiries[0].coins) : 0;
    expect(expired).toBe(10 - Math.min(before, 10));
    if (expiries.length) expect(expiries[0].narration).toContain(lot.id);
    // Every coin accounted for: 15 in, what was spent and what expired out, the rest in the wallet.
    const { available } = await balance(userId);
    expect(spent + expired + available).toBe(15);
    // balanceAfter is the running sum, entry by entry, expiry included.
    let running = 0;
    for (const e of entries) {
      running += e.debitOrCredit === 'CR' ? Number(e.coins) : -Number(e.coins);
      expect(Number(e.balanceAfter)).toBeCloseTo(running, 2);
    }
    if (expired > 0) {
      await eventually(async () =>
        receiver.received.some((r) => r.json?.event === 'COINS_EXPIRED' && r.json.lotId === lot.id)
          ? true
          : undefined,
      );
      await new Promise((r) => setTimeout(r, 200));
      const hooks = receiver.received.filter(
        (r) => r.json?.event === 'COINS_EXPIRED' && r.json.lotId === lot.id,
      );
      expect(new Set(hooks.map((r) => String(r.headers['webhook-id']))).size).toBe(1);
      expect(hooks[0].json).toMatchObject({ coins: expired, userId, ledgerEntryId: expiries[0].id });
    }
  });

  it('refuses a debit that only the expired coins would have covered, and still records the expiry', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const lot = await credit(userId, 8, { expiresAt: inMs(400) });
    await credit(userId, 2);
    await sleepUntil(Date.now() + 500);
    const res = await spend(userId, 5);
    expect(res.status).toBe(422);
    expect(res.body.data.appErrorCode).toBe('INSUFFICIENT_BALANCE');
    expect((await balance(userId)).available).toBe(2);
    await eventually(async () => {
      const expiries = (await history(userId)).filter((e) => e.transactionType === 'expiry');
      return expiries.length === 1 ? expiries : undefined;
    });
    const expiry = (await history(userId)).find((e) => e.transactionType === 'expiry')!;
    expect(expiry).toMatchObject({ coins: 8, debitOrCredit: 'DE', balanceAfter: 2 });
    expect(expiry.narration).toContain(lot.id);
  });

  it('tells the partner once with COINS_EXPIRING before coins expire', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const lot = await credit(userId, 7, { expiresAt: inMs(6 * 3600_000) });
    const warned = await eventually(async () =>
      receiver.received.find((r) => r.json?.event === 'COINS_EXPIRING' && r.json.userId === userId),
    );
    expect(warned!.json).toMatchObject({
      coins: 7,
      expiresAt: lot.expiresAt,
      lots: [{ lotId: lot.id, coins: 7 }],
    });
    await new Promise((r) => setTimeout(r, 400));
    const all = receiver.received.filter(
      (r) => r.json?.event === 'COINS_EXPIRING' && r.json.userId === userId,
    );
    expect(new Set(all.map((r) => String(r.headers['webhook-id']))).size).toBe(1);
  });
});
