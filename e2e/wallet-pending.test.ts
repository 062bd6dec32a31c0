import { randomUUID } from 'node:crypto';
import { eventually, type Stack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeCoinBoard } from './support/leaderboard.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { BALANCE, TO_USER, transfer } from './support/wallet.ts';

/**
 * Pending (two-phase) transfers through the gateway: held, posted (in full or for less), voided, or
 * resolved by their expiry; each change an entry, an event and a webhook; the edge cases answered
 * with the envelope naming them.
 */

const PENDING = '/api/v1/laas/coins/pending-transfers';

let stack: Stack;
let partner: RegisteredPartner;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'leaderboard', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
    WALLET_EXPIRY_INTERVAL_MS: '100',
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

async function hold(userId: string, coins: number, pending: Record<string, unknown> = {}) {
  const res = await transfer(stack.api, TO_USER, token(), { userId, coins, pending }, randomUUID());
  expect(res.status).toBe(200);
  return res.body.data as { coinsLedger: { id: string }; pendingTransfer: { id: string; expiresAt: string } };
}

function change(id: string, action: 'post' | 'void', body: Record<string, unknown> = {}, key = randomUUID()) {
  return stack.api.post(`${PENDING}/${id}/${action}`, body, {
    token: token(),
    headers: { 'idempotency-key': key },
  });
}

async function balance(userId: string) {
  const res = await stack.api.get(BALANCE, { token: token(), query: { userId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The webhooks of one pending transfer, by kind, once each (a repeat carries its webhook-id again). */
function hooksOf(pendingTransferId: string) {
  const byId = new Map(
    receiver.received
      .filter((r) => r.json?.pendingTransferId === pendingTransferId)
      .map((r) => [String(r.headers['webhook-id']), r.json]),
  );
  return [...byId.values()].map((j) => j.event).sort();
}

describe('pending transfers through the gateway', () => {
  it('holds, then posts for less: balances, history, leaderboard and a webhook for each change', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const { pendingTransfer } = await hold(userId, 40, { expiresInSeconds: 3600 });
    expect(await balance(userId)).toEqual({ userId, coins: 0, available: 0, pending: 40, expiring: [] });
    const res = await change(pendingTransfer.id, 'post', { coins: 30, narration: 'order delivered' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('pending transfer posted');
    expect(res.body.data.coinsLedger).toMatchObject({
      transactionType: 'partner_user_transfer',
      coins: 30,
      narration: 'order delivered',
      balanceAfter: 30,
    });
    expect(res.body.data.releasedLedger).toMatchObject({ transactionType: 'pending_void', coins: 10 });
    expect(await balance(userId)).toEqual({ userId, coins: 30, available: 30, pending: 0, expiring: [] });
    const now = new Date();
    await eventually(async () => {
      const board = await wholeCoinBoard(stack.api, token(), now.getUTCFullYear(), now.getUTCMonth() + 1);
      return board.find((e) => e.userId === userId && Number(e.coins) === 30);
    });
    await eventually(async () => (hooksOf(pendingTransfer.id).length === 2 ? true : undefined));
    expect(hooksOf(pendingTransfer.id)).toEqual(['COINS_PENDING', 'COINS_PENDING_POSTED']);
    const posted = receiver.received.find(
      (r) => r.json.event === 'COINS_PENDING_POSTED' && r.json.pendingTransferId === pendingTransfer.id,
    )!.json;
    expect(posted).toMatchObject({
      status: 'success',
      ledgerEntryId: res.body.data.coinsLedger.id,
      userId,
      coins: 30,
      releasedCoins: 10,
      releasedEntryId: res.body.data.releasedLedger.id,
      resolvedBy: 'partner',
    });
  });

  it('refuses to post more than held with a 422 envelope naming it', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const { pendingTransfer } = await hold(userId, 5);
    const res = await change(pendingTransfer.id, 'post', { coins: 6 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      status: 'failed',
      message: 'request cannot be processed',
      data: {
        errorType: 'unprocessable',
        appErrorCode: 'PENDING_AMOUNT_EXCEEDED',
        error: 'coins 6 is more than the 5 this pending transfer holds',
      },
    });
    expect(await balance(userId)).toMatchObject({ available: 0, pending: 5 });
  });

  it('answers a second void with 409 PENDING_ALREADY_VOIDED, and a keyed retry with the first void', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const { pendingTransfer } = await hold(userId, 8);
    const key = randomUUID();
    const first = await change(pendingTransfer.id, 'void', { reason: 'order returned' }, key);
    expect(first.status).toBe(200);
    expect(first.body.data.coinsLedger.narration).toBe(
      `pending transfer ${pendingTransfer.id} voided: order returned`,
    );
    const retry = await change(pendingTransfer.id, 'void', { reason: 'order returned' }, key);
    expect(retry.body.data).toEqual({ ...first.body.data, isExisting: true });
    const second = await change(pendingTransfer.id, 'void');
    expect(second.status).toBe(409);
    expect(second.body.data).toMatchObject({ errorType: 'conflict', appErrorCode: 'PENDING_ALREADY_VOIDED' });
    const late = await change(pendingTransfer.id, 'post');
    expect(late.body.data.appErrorCode).toBe('PENDING_ALREADY_VOIDED');
    expect(await balance(userId)).toMatchObject({ available: 0, pending: 0 });
    await eventually(async () => (hooksOf(pendingTransfer.id).length === 2 ? true : undefined));
    expect(hooksOf(pendingTransfer.id)).toEqual(['COINS_PENDING', 'COINS_PENDING_VOIDED']);
  });

  it('resolves a pending transfer once under racing posts and voids', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const { pendingTransfer } = await hold(userId, 10);
    const answers = await Promise.all([
      change(pendingTransfer.id, 'post'),
      change(pendingTransfer.id, 'void'),
      change(pendingTransfer.id, 'post', { coins: 1 }),
      change(pendingTransfer.id, 'void'),
    ]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(['PENDING_ALREADY_POSTED', 'PENDING_ALREADY_VOIDED']).toContain(a.body.data.appErrorCode);
    }
    const state = (await stack.api.get(`${PENDING}/${pendingTransfer.id}`, { token: token() })).body.data;
    const credited = state.status === 'posted' ? state.postedCoins : 0;
    expect(await balance(userId)).toMatchObject({ available: credited, pending: 0 });
  });

  it('lets its expiry void a pending transfer while posts arrive; the late ones are 409 PENDING_EXPIRED', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const { pendingTransfer } = await hold(userId, 6, { expiresInSeconds: 1, onExpiry: 'void' });
    const deadline = Date.parse(pendingTransfer.expiresAt);
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now() + 20)));
    const res = await change(pendingTransfer.id, 'post');
    expect(res.status).toBe(409);
    expect(res.body.data.appErrorCode).toBe('PENDING_EXPIRED');
    const state = (await stack.api.get(`${PENDING}/${pendingTransfer.id}`, { token: token() })).body.data;
    expect(state).toMatchObject({ status: 'expired', resolvedBy: 'expiry', postedCoins: null });
    expect(await balance(userId)).toMatchObject({ available: 0, pending: 0 });
    const list = await stack.api.get(PENDING, { token: token(), query: { userId, status: 'expired' } });
    expect(list.body.data.data.map((p: { id: string }) => p.id)).toEqual([pendingTransfer.id]);
    await eventually(async () => (hooksOf(pendingTransfer.id).length === 2 ? true : undefined));
    const voided = receiver.received.find(
      (r) => r.json.event === 'COINS_PENDING_VOIDED' && r.json.pendingTransferId === pendingTransfer.id,
    )!.json;
    expect(voided).toMatchObject({ coins: 6, resolvedBy: 'expiry' });
  });

  it('refuses a malformed pending option with a 400 naming the field', async () => {
    const [userId] = await onboardUsers(stack.api, token(), 1);
    const res = await transfer(stack.api, TO_USER, token(), {
      userId,
      coins: 1,
      pending: { expiresInSeconds: 0, colour: 'red' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.error).toBe(
      'pending.expiresInSeconds must be at least 1; pending.colour is not allowed',
    );
  });
});
