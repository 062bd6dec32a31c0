import { wallet } from '@coin/contracts';
import { eventuallyPasses, queryDatabase } from '@coin/testing';
import { describe, expect, it } from 'vitest';
import { startWallet } from '../src/service.ts';
import {
  balance,
  codeOf,
  EXPIRY_INTERVAL_MS,
  hold,
  ledgerViolations,
  partnerWithUsers,
  post,
  replicas,
  svc,
  useWalletAlone,
} from './pending-support.ts';

useWalletAlone();

describe('pending transfers at their expiry', () => {
  it('voids or posts each by its onExpiry, once, with two replicas running the expiry job', async () => {
    replicas.push(await startWallet({ ...svc.env, WALLET_EXPIRY_INTERVAL_MS: EXPIRY_INTERVAL_MS }));
    const { partnerId, ids } = partnerWithUsers(2);
    const helds = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        hold(partnerId, ids[i % 2], 2, { expiresInSeconds: 1, onExpiry: i < 5 ? 'void' : 'post' }),
      ),
    );
    await eventuallyPasses(async () => {
      const rows = await queryDatabase<{ status: string; n: number }>(
        svc.env.WALLET_DATABASE_URL!,
        `SELECT status || '/' || resolved_by AS status, count(*)::int AS n FROM pending_transfers
          WHERE partner_id = $1 GROUP BY 1 ORDER BY 1`,
        [partnerId],
      );
      expect(rows).toEqual([
        { status: 'expired/expiry', n: 5 },
        { status: 'posted/expiry', n: 5 },
      ]);
    });
    const entries = await queryDatabase<{ transaction_type: string; n: number }>(
      svc.env.WALLET_DATABASE_URL!,
      `SELECT transaction_type, count(*)::int AS n FROM ledger_entries WHERE partner_id = $1 GROUP BY 1 ORDER BY 1`,
      [partnerId],
    );
    expect(entries).toEqual([
      { transaction_type: 'partner_user_transfer', n: 5 },
      { transaction_type: 'pending_transfer', n: 10 },
      { transaction_type: 'pending_void', n: 5 },
    ]);
    const events = await queryDatabase<{ subject: string; n: number }>(
      svc.env.WALLET_DATABASE_URL!,
      `SELECT subject, count(*)::int AS n FROM outbox WHERE payload ->> 'partnerId' = $1 GROUP BY 1 ORDER BY 1`,
      [partnerId],
    );
    expect(events).toEqual([
      { subject: 'events.wallet.pendingCreated', n: 10 },
      { subject: 'events.wallet.pendingPosted', n: 5 },
      { subject: 'events.wallet.pendingVoided', n: 5 },
      { subject: 'events.wallet.transferCompleted', n: 5 },
    ]);
    const voided = await svc.call(wallet.getPendingTransfer, {
      partnerId,
      params: { id: helds[0].coinsLedger.id },
    });
    expect(voided).toMatchObject({ status: 'expired', resolvedBy: 'expiry', postedCoins: null });
    expect((await balance(partnerId, ids[0])).available + (await balance(partnerId, ids[1])).available).toBe(
      10,
    );
    expect(await ledgerViolations()).toEqual([]);
  });

  it('lets exactly one of a post and the expiry win when they meet, losing and doubling nothing', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const [userId] = ids;
    const helds = await Promise.all(
      Array.from({ length: 8 }, () => hold(partnerId, userId, 5, { expiresInSeconds: 1, onExpiry: 'void' })),
    );
    const deadline = Date.parse(helds[0].pendingTransfer!.expiresAt!);
    // Posts keep coming from just before the expiry to well after it: early ones win, late ones find it expired.
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now() - 60)));
    const codes = await Promise.all(
      helds.map(async (h, i) => {
        await new Promise((r) => setTimeout(r, i * 15));
        return codeOf(post(partnerId, h.coinsLedger.id));
      }),
    );
    await eventuallyPasses(async () => {
      const pending = await svc.call(wallet.listPendingTransfers, {
        partnerId,
        query: { page: 1, limit: 20, status: 'pending' },
      });
      expect(pending.count).toBe(0);
    });
    const list = await svc.call(wallet.listPendingTransfers, {
      partnerId,
      query: { page: 1, limit: 20, userId },
    });
    const byId = new Map(list.data.map((p) => [p.id, p]));
    for (const [i, h] of helds.entries()) {
      const p = byId.get(h.coinsLedger.id)!;
      expect(codes[i] === 'ok' ? 'posted' : 'expired').toBe(p.status);
      if (codes[i] !== 'ok') expect(codes[i]).toBe('PENDING_EXPIRED');
    }
    const posted = codes.filter((c) => c === 'ok').length;
    expect(await balance(partnerId, userId)).toMatchObject({ available: posted * 5, pending: 0 });
    expect((await svc.call(wallet.getTreasury, { partnerId })).outstanding).toBe(posted * 5);
    expect(await ledgerViolations()).toEqual([]);
  });
});
