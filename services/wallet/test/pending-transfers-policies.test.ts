import { randomUUID } from 'node:crypto';
import { wallet } from '@coin/contracts';
import { queryDatabase } from '@coin/testing';
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

describe('pending transfers over the bus: concurrency, limits, reversals and keys', () => {
  it('resolves each of many pending transfers once under concurrent posts and voids', async () => {
    const { partnerId, ids } = partnerWithUsers(3);
    const helds = await Promise.all(Array.from({ length: 12 }, (_, i) => hold(partnerId, ids[i % 3], 1 + i)));
    const outcomes = await Promise.all(
      helds.flatMap((h) => [
        codeOf(post(partnerId, h.coinsLedger.id)),
        codeOf(post(partnerId, h.coinsLedger.id, { coins: 0.5 })),
        codeOf(voidIt(partnerId, h.coinsLedger.id)),
        codeOf(voidIt(partnerId, h.coinsLedger.id)),
      ]),
    );
    for (let i = 0; i < helds.length; i++) {
      const mine = outcomes.slice(i * 4, i * 4 + 4);
      expect(mine.filter((c) => c === 'ok')).toHaveLength(1);
      expect(mine.every((c) => ['ok', 'PENDING_ALREADY_POSTED', 'PENDING_ALREADY_VOIDED'].includes(c))).toBe(
        true,
      );
    }
    const rows = await queryDatabase<{ status: string; n: number }>(
      svc.env.WALLET_DATABASE_URL!,
      'SELECT status, count(*)::int AS n FROM pending_transfers WHERE partner_id = $1 GROUP BY status',
      [partnerId],
    );
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(12);
    expect(rows.find((r) => r.status === 'pending')).toBeUndefined();
    for (const userId of ids) expect((await balance(partnerId, userId)).pending).toBe(0);
    expect(await ledgerViolations()).toEqual([]);
  });

  it('counts held coins against the issuance limit until they are voided', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    await svc.call(wallet.setTreasury, { partnerId, body: { issuanceLimit: 100 } });
    const held = await hold(partnerId, ids[0], 80);
    expect(await codeOf(hold(partnerId, ids[0], 30))).toBe('ISSUANCE_LIMIT_REACHED');
    const transfer = svc.call(wallet.transferToUser, { partnerId, body: { userId: ids[0], coins: 30 } });
    expect(await codeOf(transfer)).toBe('ISSUANCE_LIMIT_REACHED');
    await voidIt(partnerId, held.coinsLedger.id);
    await svc.call(wallet.transferToUser, { partnerId, body: { userId: ids[0], coins: 30 } });
    expect((await svc.call(wallet.getTreasury, { partnerId })).outstanding).toBe(30);
  });

  it('refuses to reverse a hold or a void; a post is reversed like any credit', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const a = await hold(partnerId, ids[0], 7);
    const b = await hold(partnerId, ids[0], 9);
    const voided = await voidIt(partnerId, b.coinsLedger.id);
    for (const ledgerEntryId of [a.coinsLedger.id, voided.coinsLedger.id]) {
      const refused = await svc.refusal(wallet.reverseTransfer, { partnerId, body: { ledgerEntryId } });
      expect([refused.status, refused.details.appErrorCode]).toEqual([422, 'NOT_REVERSIBLE']);
    }
    const posted = await post(partnerId, a.coinsLedger.id);
    const reversal = await svc.call(wallet.reverseTransfer, {
      partnerId,
      body: { ledgerEntryId: posted.coinsLedger.id },
    });
    expect(reversal.coinsLedger).toMatchObject({ debitOrCredit: 'DE', coins: 7, balanceAfter: 0 });
    expect(await balance(partnerId, ids[0])).toMatchObject({ available: 0, pending: 0 });
    expect(
      (await svc.call(wallet.getPendingTransfer, { partnerId, params: { id: a.coinsLedger.id } })).status,
    ).toBe('posted');
    expect(await ledgerViolations()).toEqual([]);
  });

  it('replays a keyed hold with its pending transfer as it stands, and refuses the key for other options', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const request = {
      partnerId,
      idempotencyKey: randomUUID(),
      body: { userId: ids[0], coins: 4, pending: { expiresInSeconds: 3600, onExpiry: 'post' as const } },
    };
    const first = await svc.call(wallet.transferToUser, request);
    await post(partnerId, first.coinsLedger.id, { coins: 1 });
    const again = await svc.call(wallet.transferToUser, request);
    expect(again.isExisting).toBe(true);
    expect(again.coinsLedger.id).toBe(first.coinsLedger.id);
    expect(again.pendingTransfer).toMatchObject({ status: 'posted', postedCoins: 1 });
    const other = await svc.refusal(wallet.transferToUser, {
      ...request,
      body: { ...request.body, pending: { expiresInSeconds: 3600, onExpiry: 'void' as const } },
    });
    expect(other.details.appErrorCode).toBe('IDEMPOTENCY_CONFLICT');
    const plain = await svc.refusal(wallet.transferToUser, {
      ...request,
      body: { userId: ids[0], coins: 4 },
    });
    expect(plain.details.appErrorCode).toBe('IDEMPOTENCY_CONFLICT');
  });
});
