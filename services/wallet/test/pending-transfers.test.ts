import { randomUUID } from 'node:crypto';
import { wallet } from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import {
  balance,
  codeOf,
  hold,
  ledgerViolations,
  partnerWithUsers,
  post,
  svc,
  useWalletAlone,
  voidIt,
} from './pending-support.ts';

useWalletAlone();

describe('pending transfers over the bus: hold, post and void', () => {
  it('holds coins apart from the balance, then posts them; the treasury counts them from the hold', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const [userId] = ids;
    await svc.call(wallet.transferToUser, { partnerId, body: { userId, coins: 10 } });
    const held = await hold(partnerId, userId, 25.5);
    expect(held.coinsLedger).toMatchObject({
      transactionType: 'pending_transfer',
      debitOrCredit: 'CR',
      coins: 25.5,
      balanceAfter: 10,
    });
    expect(held.pendingTransfer).toMatchObject({
      id: held.coinsLedger.id,
      userId,
      coins: 25.5,
      status: 'pending',
      expiresAt: null,
      onExpiry: 'void',
    });
    expect(await balance(partnerId, userId)).toEqual({
      userId,
      coins: 10,
      available: 10,
      pending: 25.5,
      expiring: [],
    });
    expect((await svc.call(wallet.getTreasury, { partnerId })).outstanding).toBe(35.5);
    // Held coins cannot be spent.
    const spend = await svc.refusal(wallet.transferFromUser, { partnerId, body: { userId, coins: 10.01 } });
    expect(spend.details.appErrorCode).toBe('INSUFFICIENT_BALANCE');

    const posted = await post(partnerId, held.coinsLedger.id);
    expect(posted.isExisting).toBe(false);
    expect(posted.coinsLedger).toMatchObject({
      transactionType: 'partner_user_transfer',
      debitOrCredit: 'CR',
      coins: 25.5,
      balanceAfter: 35.5,
    });
    expect(posted.releasedLedger).toBeNull();
    expect(posted.pendingTransfer).toMatchObject({
      status: 'posted',
      postedCoins: 25.5,
      postEntryId: posted.coinsLedger.id,
      voidEntryId: null,
      resolvedBy: 'partner',
    });
    expect(await balance(partnerId, userId)).toEqual({
      userId,
      coins: 35.5,
      available: 35.5,
      pending: 0,
      expiring: [],
    });
    expect((await svc.call(wallet.getTreasury, { partnerId })).outstanding).toBe(35.5);
    expect(await ledgerViolations()).toEqual([]);
  });

  it('posts for less: the rest goes back to the partner by a pending_void entry', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const [userId] = ids;
    const held = await hold(partnerId, userId, 40);
    const posted = await post(partnerId, held.coinsLedger.id, { coins: 30 });
    expect(posted.coinsLedger).toMatchObject({ coins: 30, balanceAfter: 30 });
    expect(posted.releasedLedger).toMatchObject({
      transactionType: 'pending_void',
      debitOrCredit: 'DE',
      coins: 10,
      balanceAfter: 30,
    });
    expect(posted.pendingTransfer).toMatchObject({
      status: 'posted',
      postedCoins: 30,
      voidEntryId: posted.releasedLedger!.id,
    });
    expect((await svc.call(wallet.getTreasury, { partnerId })).outstanding).toBe(30);
    const history = await svc.call(wallet.getUserTransactions, {
      partnerId,
      query: { userId, page: 1, limit: 10 },
    });
    expect(history.data.map((e) => [e.transactionType, e.debitOrCredit, e.coins, e.balanceAfter])).toEqual([
      ['pending_void', 'DE', 10, 30],
      ['partner_user_transfer', 'CR', 30, 30],
      ['pending_transfer', 'CR', 40, 0],
    ]);
  });

  it('refuses to post more than held, naming it, and moves nothing', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const held = await hold(partnerId, ids[0], 5);
    const refused = await svc.refusal(wallet.postPendingTransfer, {
      partnerId,
      params: { id: held.coinsLedger.id },
      body: { coins: 5.01 },
      idempotencyKey: randomUUID(),
    });
    expect([refused.status, refused.details.appErrorCode]).toEqual([422, 'PENDING_AMOUNT_EXCEEDED']);
    expect(refused.details.error).toBe('coins 5.01 is more than the 5 this pending transfer holds');
    expect(await balance(partnerId, ids[0])).toMatchObject({ available: 0, pending: 5 });
  });

  it('voids once: a second void is 409 PENDING_ALREADY_VOIDED, a retry with the same key replays', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const held = await hold(partnerId, ids[0], 12);
    const key = randomUUID();
    const voided = await voidIt(partnerId, held.coinsLedger.id, key);
    expect(voided.coinsLedger).toMatchObject({ transactionType: 'pending_void', coins: 12, balanceAfter: 0 });
    expect(voided.pendingTransfer).toMatchObject({ status: 'voided', resolvedBy: 'partner' });
    const again = await voidIt(partnerId, held.coinsLedger.id, key);
    expect(again).toEqual({ ...voided, isExisting: true });
    const second = await svc.refusal(wallet.voidPendingTransfer, {
      partnerId,
      params: { id: held.coinsLedger.id },
      body: {},
      idempotencyKey: randomUUID(),
    });
    expect([second.status, second.details.appErrorCode]).toEqual([409, 'PENDING_ALREADY_VOIDED']);
    expect(await codeOf(post(partnerId, held.coinsLedger.id))).toBe('PENDING_ALREADY_VOIDED');
    expect(await balance(partnerId, ids[0])).toMatchObject({ available: 0, pending: 0 });
    expect((await svc.call(wallet.getTreasury, { partnerId })).outstanding).toBe(0);
  });

  it("answers 404 for another partner's pending transfer, and for an unknown one", async () => {
    const mine = partnerWithUsers(1);
    const theirs = partnerWithUsers(0);
    const held = await hold(mine.partnerId, mine.ids[0], 3);
    for (const [partnerId, id] of [
      [theirs.partnerId, held.coinsLedger.id],
      [mine.partnerId, randomUUID()],
    ]) {
      const refused = await svc.refusal(wallet.getPendingTransfer, { partnerId, params: { id } });
      expect(refused.status).toBe(404);
      expect(await codeOf(post(partnerId, id))).toBe('NOT_FOUND');
    }
  });

  it('refuses a pending expiry in the past, and onExpiry post without an expiry, naming the field', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const past = await svc.refusal(wallet.transferToUser, {
      partnerId,
      body: { userId: ids[0], coins: 1, pending: { expiresAt: '2020-01-01T00:00:00Z', onExpiry: 'void' } },
    });
    expect([past.status, past.details.error]).toEqual([400, 'pending.expiresAt must be in the future']);
    const post = await svc.refusal(wallet.transferToUser, {
      partnerId,
      body: { userId: ids[0], coins: 1, pending: { onExpiry: 'post' } },
    });
    expect([post.status, post.details.error]).toEqual([
      400,
      'pending.onExpiry may be post only with expiresAt or expiresInSeconds',
    ]);
  });
});
