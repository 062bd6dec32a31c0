import { randomUUID } from 'node:crypto';
import { eventuallyPasses, type Stack, seededRandom } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeCoinBoard, wholePointsBoard } from './support/leaderboard.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { createRule, onboardUsers, reward } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { FROM_USER, HISTORY, TO_USER, transfer } from './support/wallet.ts';

const REVERSE = '/api/v1/laas/coins/reverse';
const TREASURY = '/api/v1/laas/coins/treasury';
/** A treasury without a limit or a default validity, where nothing expired. */
const UNLIMITED = { expired: 0, issuanceLimit: null, defaultValidity: null };

let stack: Stack;
let partner: RegisteredPartner;
let other: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules', 'leaderboard'], {
    AUTH_RATE_LIMIT_MAX: '1000',
  });
  partner = await registerAndLogin(stack.api);
  other = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await stack?.stop();
});

function reverse(token: string, body: Record<string, unknown>, key = randomUUID()) {
  return stack.api.post(REVERSE, body, { token, headers: { 'idempotency-key': key } });
}

async function credit(p: RegisteredPartner, userId: string, coins: number) {
  const res = await transfer(stack.api, TO_USER, p.accessToken, { userId, coins });
  expect(res.status).toBe(200);
  return res.body.data.coinsLedger;
}

/** Every entry of the user's history through the cursor, newest first. */
async function walk(p: RegisteredPartner, userId: string, limit: number, during?: () => Promise<void>) {
  const seen: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await stack.api.get(HISTORY, {
      token: p.accessToken,
      query: { userId, limit, ...(cursor ? { cursor } : {}) },
    });
    expect(res.status).toBe(200);
    seen.push(...res.body.data.data);
    if (res.body.data.nextCursor === null) return seen;
    cursor = res.body.data.nextCursor;
    await during?.();
  }
}

describe('reversals', () => {
  it('corrects a credit with a reversal entry; the original shows reversed and refunded', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const original = await credit(partner, userId, 30);
    expect(original.balanceAfter).toBe(30);
    const key = randomUUID();
    const res = await reverse(partner.accessToken, { ledgerEntryId: original.id, reason: 'wrong user' }, key);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('coin transfer reversed');
    const { isExisting, coinsLedger, reversedEntry } = res.body.data;
    expect(isExisting).toBe(false);
    expect(coinsLedger).toMatchObject({
      transactionType: 'reversal',
      debitOrCredit: 'DE',
      coins: 30,
      from: original.to,
      to: original.from,
      balanceAfter: 0,
      reversed: false,
    });
    expect(coinsLedger.narration).toContain(original.id);
    expect(reversedEntry).toMatchObject({
      id: original.id,
      reversed: true,
      refunded: true,
      balanceAfter: 30,
    });

    const again = await reverse(
      partner.accessToken,
      { ledgerEntryId: original.id, reason: 'wrong user' },
      key,
    );
    expect(again.status).toBe(200);
    expect(again.body.data.isExisting).toBe(true);
    expect(again.body.data.coinsLedger.id).toBe(coinsLedger.id);

    const history = await stack.api.get(HISTORY, { token: partner.accessToken, query: { userId } });
    const byId = new Map(history.body.data.data.map((e: any) => [e.id, e]));
    expect(byId.get(original.id)).toMatchObject({ refunded: true });
    expect(byId.get(coinsLedger.id)).toMatchObject({ refunded: false, transactionType: 'reversal' });

    const twice = await reverse(partner.accessToken, { ledgerEntryId: original.id });
    expect(twice.status).toBe(409);
    expect(twice.body.data.appErrorCode).toBe('ALREADY_REVERSED');
    const ofReversal = await reverse(partner.accessToken, { ledgerEntryId: coinsLedger.id });
    expect(ofReversal.status).toBe(422);
    expect(ofReversal.body.data.appErrorCode).toBe('NOT_REVERSIBLE');
  });

  it("refuses another partner's entry (404), a spent credit (422) and bad input (400)", async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const original = await credit(partner, userId, 10);
    const foreign = await reverse(other.accessToken, { ledgerEntryId: original.id });
    expect(foreign.status).toBe(404);
    const spend = await transfer(stack.api, FROM_USER, partner.accessToken, { userId, coins: 4 });
    expect(spend.status).toBe(200);
    const spent = await reverse(partner.accessToken, { ledgerEntryId: original.id });
    expect(spent.status).toBe(422);
    expect(spent.body.data.appErrorCode).toBe('INSUFFICIENT_BALANCE');
    // Reversing the debit gives the 4 coins back; then the credit can be reversed.
    const debit = await reverse(partner.accessToken, { ledgerEntryId: spend.body.data.coinsLedger.id });
    expect(debit.status).toBe(200);
    expect(debit.body.data.coinsLedger).toMatchObject({ debitOrCredit: 'CR', balanceAfter: 10 });
    expect((await reverse(partner.accessToken, { ledgerEntryId: original.id })).status).toBe(200);
    const bad = await reverse(partner.accessToken, { ledgerEntryId: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error).toMatch(/ledgerEntryId/);
  });

  it('50 concurrent reversals of one entry with different keys: exactly one succeeds', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const original = await credit(partner, userId, 50);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => reverse(partner.accessToken, { ledgerEntryId: original.id })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(
      answers.filter((a) => a.status === 409).every((a) => a.body.data.appErrorCode === 'ALREADY_REVERSED'),
    ).toBe(true);
    const bal = await stack.api.get('/api/v1/laas/coins/balance', {
      token: partner.accessToken,
      query: { userId },
    });
    expect(bal.body.data.coins).toBe(0);
  });

  it('a reversed credit leaves the coin board of its month, a reversed reward the points board', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const ruleName = `rev-${randomUUID().slice(0, 8)}`;
    expect(
      (
        await createRule(stack.api, partner.accessToken, {
          name: ruleName,
          coinValue: '7',
          maxNumberOfParticipant: '10',
          condition: 'x',
        })
      ).status,
    ).toBe(200);
    const paid = await reward(stack.api, partner.accessToken, { userId, ruleName });
    expect(paid.status).toBe(200);
    const now = new Date();
    const [y, m] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    await eventuallyPasses(async () => {
      const board = await wholeCoinBoard(stack.api, partner.accessToken, y, m);
      expect(board.find((e: any) => e.userId === userId)).toBeTruthy();
      const points = await wholePointsBoard(stack.api, partner.accessToken);
      expect(points.find((e: any) => e.user?.userId === userId)).toBeTruthy();
    });
    const res = await reverse(partner.accessToken, { ledgerEntryId: paid.body.data.coinsLedger.id });
    expect(res.status).toBe(200);
    const started = Date.now();
    await eventuallyPasses(async () => {
      const board = await wholeCoinBoard(stack.api, partner.accessToken, y, m);
      expect(board.find((e: any) => e.userId === userId)).toBeUndefined();
      const points = await wholePointsBoard(stack.api, partner.accessToken);
      expect(points.find((e: any) => e.user?.userId === userId)).toBeUndefined();
    });
    console.log(`reversed reward left both boards after ${Date.now() - started} ms`);
  });
});

describe('balanceAfter and cursors', () => {
  it('balanceAfter of every entry equals the running sum after a concurrent workload', async () => {
    const random = seededRandom('balanceAfter workload');
    const users = await onboardUsers(stack.api, partner.accessToken, 3);
    await Promise.all(
      Array.from({ length: 120 }, async () => {
        const userId = random.pick(users);
        const coins = 1 + random.below(20);
        const path = random.below(10) < 7 ? TO_USER : FROM_USER;
        const res = await transfer(stack.api, path, partner.accessToken, { userId, coins });
        expect([200, 422]).toContain(res.status);
        if (res.status === 200 && random.below(5) === 0)
          await reverse(partner.accessToken, { ledgerEntryId: res.body.data.coinsLedger.id });
      }),
    );
    for (const userId of users) {
      const entries = (await walk(partner, userId, 17)).reverse();
      let running = 0;
      for (const e of entries) {
        running = Math.round((running + (e.debitOrCredit === 'CR' ? e.coins : -e.coins)) * 100) / 100;
        expect(e.balanceAfter).toBe(running);
      }
      const bal = await stack.api.get('/api/v1/laas/coins/balance', {
        token: partner.accessToken,
        query: { userId },
      });
      expect(bal.body.data.coins).toBe(running);
    }
  });

  it('a cursor walk during concurrent inserts returns every earlier entry once', async () => {
    const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
    const before: string[] = [];
    for (let i = 0; i < 25; i++) before.push((await credit(partner, userId, 1 + i)).id);
    const seen = await walk(partner, userId, 4, async () => {
      await Promise.all([credit(partner, userId, 1), credit(partner, userId, 2)]);
    });
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) expect(ids).toContain(id);
    // The page/limit pages keep working beside the cursor.
    const paged = await stack.api.get(HISTORY, {
      token: partner.accessToken,
      query: { userId, page: 2, limit: 4 },
    });
    expect(paged.status).toBe(200);
    expect(paged.body.data.currentpage).toBe(2);
    expect(paged.body.data.data).toHaveLength(4);
    const bad = await stack.api.get(HISTORY, { token: partner.accessToken, query: { userId, cursor: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error).toMatch(/cursor/);
  });
});

describe('treasury', () => {
  it('reads issued, redeemed, outstanding and sets or clears the limit', async () => {
    const p = await registerAndLogin(stack.api);
    const [userId] = await onboardUsers(stack.api, p.accessToken, 1);
    await credit(p, userId, 40);
    const spend = await transfer(stack.api, FROM_USER, p.accessToken, { userId, coins: 15 });
    expect(spend.status).toBe(200);
    const read = await stack.api.get(TREASURY, { token: p.accessToken });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...UNLIMITED, issued: 40, redeemed: 15, outstanding: 25 });
    const set = await stack.api.put(TREASURY, { issuanceLimit: 30 }, { token: p.accessToken });
    expect(set.status).toBe(200);
    expect(set.body.data.issuanceLimit).toBe(30);
    const over = await transfer(stack.api, TO_USER, p.accessToken, { userId, coins: 5.01 });
    expect(over.status).toBe(422);
    expect(over.body.data.appErrorCode).toBe('ISSUANCE_LIMIT_REACHED');
    expect((await transfer(stack.api, TO_USER, p.accessToken, { userId, coins: 5 })).status).toBe(200);
    const bad = await stack.api.put(TREASURY, { issuanceLimit: -1 }, { token: p.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error).toMatch(/issuanceLimit/);
    const cleared = await stack.api.put(TREASURY, { issuanceLimit: null }, { token: p.accessToken });
    expect(cleared.body.data).toEqual({ ...UNLIMITED, issued: 45, redeemed: 15, outstanding: 30 });
  });

  it('100 concurrent transfers against a limit that allows 37: exactly 37 succeed', async () => {
    const p = await registerAndLogin(stack.api);
    const users = await onboardUsers(stack.api, p.accessToken, 5);
    expect((await stack.api.put(TREASURY, { issuanceLimit: 37 }, { token: p.accessToken })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        transfer(stack.api, TO_USER, p.accessToken, { userId: users[i % users.length], coins: 1 }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(37);
    expect(
      answers
        .filter((a) => a.status !== 200)
        .every((a) => a.body.data.appErrorCode === 'ISSUANCE_LIMIT_REACHED'),
    ).toBe(true);
    const read = await stack.api.get(TREASURY, { token: p.accessToken });
    expect(read.body.data).toMatchObject({ issued: 37, outstanding: 37, issuanceLimit: 37 });
  });

  it('rule rewards obey the limit', async () => {
    const p = await registerAndLogin(stack.api);
    const users = await onboardUsers(stack.api, p.accessToken, 3);
    const ruleName = `cap-${randomUUID().slice(0, 8)}`;
    await createRule(stack.api, p.accessToken, {
      name: ruleName,
      coinValue: '10',
      maxNumberOfParticipant: '100',
      condition: 'x',
    });
    expect((await stack.api.put(TREASURY, { issuanceLimit: 25 }, { token: p.accessToken })).status).toBe(200);
    const answers = await Promise.all(
      users.map((userId) => reward(stack.api, p.accessToken, { userId, ruleName })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const refused = answers.find((a) => a.status !== 200)!;
    expect(refused.status).toBe(422);
    expect(refused.body.data.appErrorCode).toBe('ISSUANCE_LIMIT_REACHED');
  });
});
