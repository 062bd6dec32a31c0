import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { onboardWithData } from './support/onboarding.ts';
import { partnerClient } from './support/partners.ts';
import { BALANCE, FROM_USER, HISTORY, TO_USER, transfer } from './support/wallet.ts';
import {
  DETAILS_TIMEOUT_MS,
  detailsCalls,
  ENTRY_KEYS,
  ISO,
  other,
  PARTY_KEYS,
  partner,
  stack,
  TRANSFER_KEYS,
  useWalletStack,
} from './support/wallet-suite.ts';

useWalletStack();

describe('transfers', () => {
  it('partner → user returns the specification ledger entry, field by field', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [
      { fullname: 'Ada Lovelace', email: 'ada@example.com', tag: 'ada' },
    ]);
    const res = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 12.5 });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toBe('coin transferred');
    expect(res.body.data.isExisting).toBe(false);
    const e = res.body.data.coinsLedger;
    expect(Object.keys(e).sort()).toEqual(TRANSFER_KEYS);
    expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(e).toMatchObject({
      userId,
      debitOrCredit: 'CR',
      coins: 12.5,
      claimed: false,
      transactionType: 'partner_user_transfer',
      narration: 'transfer from Acme Rewards',
      plan: {},
      paidWithGiftCard: false,
      giftCardLedger: {},
      laas: true,
      charge: 0,
      refunded: false,
      reversed: false,
      status: 'Success',
      token: null,
    });
    expect(e.createdAt).toMatch(ISO);
    expect(e.updatedAt).toMatch(ISO);
    expect(Object.keys(e.from).sort()).toEqual(PARTY_KEYS);
    expect(e.from).toEqual({
      id: partner.partnerId,
      fullname_businessName: 'Acme Rewards',
      email: partner.email,
      tag: null,
      userId: partner.partnerId,
    });
    // The partner's userDetailsUrl answered for tag "ada" (the details server names everyone Grace).
    expect(e.to).toMatchObject({ fullname_businessName: 'Grace Hopper', tag: 'ada', userId });
    expect(e.to.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('user → partner is a DE entry from the user to the partner; a custom narration is kept', async () => {
    const [userId] = await onboardWithData(stack.api, other.accessToken, [
      { fullname: 'Alan Turing', email: 'alan@example.com' },
    ]);
    await partnerClient(stack.api, other).transferToUser({ userId, coins: 10 });
    const res = await transfer(stack.api, FROM_USER, other.accessToken, {
      userId,
      coins: 3.25,
      narration: 'gift card purchase',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('coin transferred');
    const e = res.body.data.coinsLedger;
    expect(Object.keys(e).sort()).toEqual(TRANSFER_KEYS);
    expect(e).toMatchObject({
      userId,
      debitOrCredit: 'DE',
      coins: 3.25,
      transactionType: 'user_partner_transfer',
      narration: 'gift card purchase',
      status: 'Success',
    });
    expect(e.from).toMatchObject({
      fullname_businessName: 'Alan Turing',
      email: 'alan@example.com',
      tag: null,
      userId,
    });
    expect(e.to).toMatchObject({ id: other.partnerId, fullname_businessName: 'Example Partner', tag: null });
    const balance = await stack.api.get(BALANCE, { token: other.accessToken, query: { userId } });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({
      status: 'success',
      message: 'balance returned',
      data: { userId, coins: 6.75, available: 6.75, pending: 0, expiring: [] },
    });
  });

  it('a partner URL that never answers costs at most its timeout and the transfer still succeeds', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [
      { fullname: 'Slow Poke', email: 'slow@example.com', tag: 'slow' },
    ]);
    const began = Date.now();
    const res = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 1 });
    expect(res.status).toBe(200);
    // The timeout, with room for a loaded machine: a transfer that waited on the URL would take far longer.
    expect(Date.now() - began).toBeLessThan(DETAILS_TIMEOUT_MS + 2000);
    expect(res.body.data.coinsLedger.to).toMatchObject({
      fullname_businessName: 'Slow Poke',
      email: 'slow@example.com',
      tag: 'slow',
    });
    expect(detailsCalls).toBeGreaterThan(0);
  });

  it('refuses an amount with more than 2 decimals, a zero amount and a missing userId', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const cases: [Record<string, unknown>, string][] = [
      [{ userId, coins: 1.005 }, 'coins must have at most 2 decimal places'],
      [{ coins: 1 }, 'userId is required'],
    ];
    for (const [body, error] of cases) {
      const res = await transfer(stack.api, TO_USER, partner.accessToken, body);
      expect(res.status).toBe(400);
      expect(res.body.data).toMatchObject({ appErrorCode: 'Bad request', error });
    }
    const zero = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.data.error).toMatch(/^coins /);
  });

  it('refuses a transfer beyond the balance with 422 INSUFFICIENT_BALANCE and moves nothing', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 5 });
    const res = await transfer(stack.api, FROM_USER, partner.accessToken, { userId, coins: 5.01 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: 'failed',
      data: { errorType: 'unprocessable', appErrorCode: 'INSUFFICIENT_BALANCE' },
    });
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data.coins).toBe(5);
  });

  it('answers 404 for a user the partner has not onboarded, and for another partner’s user', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 2 });
    for (const [token, id] of [
      [partner.accessToken, randomUUID()],
      [other.accessToken, userId],
    ]) {
      for (const path of [TO_USER, FROM_USER]) {
        const res = await transfer(stack.api, path, token, { userId: id, coins: 1 });
        expect(res.status).toBe(404);
        expect(res.body.data.appErrorCode).toBe('NOT_FOUND');
      }
      for (const path of [HISTORY, BALANCE]) {
        const res = await stack.api.get(path, { token, query: { userId: id } });
        expect(res.status).toBe(404);
        expect(res.body.data.appErrorCode).toBe('NOT_FOUND');
      }
    }
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data.coins).toBe(2);
  });

  it('requires a partner token', async () => {
    const res = await stack.api.post(TO_USER, { userId: randomUUID(), coins: 1 });
    expect(res.status).toBe(401);
  });
});

describe('history and balance', () => {
  it('lists entries newest first with the pagination block, without reversed/status/token', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{ fullname: 'Hist' }]);
    const sdk = partnerClient(stack.api, partner);
    for (const coins of [1, 2, 3, 4, 5]) await sdk.transferToUser({ userId, coins });
    await sdk.transferFromUser({ userId, coins: 6 });

    const first = await stack.api.get(HISTORY, {
      token: partner.accessToken,
      query: { userId, page: 1, limit: 4 },
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('transaction history returned');
    const page1 = first.body.data;
    expect(Object.keys(page1).sort()).toEqual(
      ['data', 'count', 'currentpage', 'nextpage', 'prevpage', 'lastpage', 'nextCursor'].sort(),
    );
    expect(page1).toMatchObject({ count: 6, currentpage: 1, nextpage: 2, prevpage: null, lastpage: 2 });
    expect(page1.data.map((e: any) => [e.debitOrCredit, e.coins])).toEqual([
      ['DE', 6],
      ['CR', 5],
      ['CR', 4],
      ['CR', 3],
    ]);
    for (const e of page1.data) expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);

    const second = await stack.api.get(HISTORY, {
      token: partner.accessToken,
      query: { userId, page: 2, limit: 4 },
    });
    expect(second.body.data).toMatchObject({
      count: 6,
      currentpage: 2,
      nextpage: null,
      prevpage: 1,
      nextCursor: null,
    });
    expect(second.body.data.data.map((e: any) => e.coins)).toEqual([2, 1]);

    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data).toEqual({ userId, coins: 9, available: 9, pending: 0, expiring: [] });
  });

  it('an onboarded user without transfers has an empty history and a zero balance', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const history = await stack.api.get(HISTORY, { token: partner.accessToken, query: { userId } });
    expect(history.body.data).toEqual({
      data: [],
      count: 0,
      currentpage: 1,
      nextpage: null,
      prevpage: null,
      lastpage: 1,
      nextCursor: null,
    });
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data).toEqual({ userId, coins: 0, available: 0, pending: 0, expiring: [] });
  });
});
