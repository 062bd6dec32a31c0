import { randomUUID } from 'node:crypto';
import { identity, onboarding, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { Stoppable } from '@coin/startup';
import {
  eventuallyPasses,
  queryDatabase,
  type ServiceAlone,
  startServiceAlone,
  withDatabase,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/index.ts';
import { startWallet } from '../src/service.ts';

// The wallet alone (two replicas where a test says so), its neighbours' subjects answered by stand-ins.
let svc: ServiceAlone;
const replicas: Stoppable[] = [];
const users = new Map<string, Set<string>>();
const EXPIRY_INTERVAL_MS = '100';

beforeAll(async () => {
  svc = await startServiceAlone('wallet', startWallet, { WALLET_EXPIRY_INTERVAL_MS: EXPIRY_INTERVAL_MS });
  svc.standIn(onboarding.getUser, async ({ partnerId, body }) => {
    const userId = body.userId.toLowerCase();
    if (!users.get(partnerId)?.has(userId)) throw AppError.notFound('user not found');
    const at = new Date().toISOString();
    return { id: randomUUID(), userId, userData: {}, tierId: null, createdAt: at, updatedAt: at };
  });
  svc.standIn(identity.getPartnerProfile, async ({ partnerId }) => ({
    partnerId,
    applicationName: 'Pending test',
    partnerName: 'Pending Test Ltd',
    email: 'pending@example.com',
    userDetailsUrl: 'https://partner.example/users',
  }));
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await svc?.stop();
});

function partnerWithUsers(n: number) {
  const partnerId = randomUUID();
  const ids = Array.from({ length: n }, () => randomUUID());
  users.set(partnerId, new Set(ids));
  return { partnerId, ids };
}

const balance = (partnerId: string, userId: string) =>
  svc.call(wallet.getBalance, { partnerId, query: { userId } });

function hold(partnerId: string, userId: string, coins: number, pending: Record<string, unknown> = {}) {
  return svc.call(wallet.transferToUser, {
    partnerId,
    idempotencyKey: randomUUID(),
    body: { userId, coins, pending: { onExpiry: 'void', ...pending } },
  });
}

const post = (partnerId: string, id: string, body: { coins?: number } = {}, key = randomUUID()) =>
  svc.call(wallet.postPendingTransfer, { partnerId, params: { id }, body, idempotencyKey: key });
const voidIt = (partnerId: string, id: string, key = randomUUID()) =>
  svc.call(wallet.voidPendingTransfer, { partnerId, params: { id }, body: {}, idempotencyKey: key });

async function ledgerViolations(): Promise<string[]> {
  return withDatabase(
    svc.env.WALLET_DATABASE_URL!,
    async (client) => (await verifyLedger(client)).violations,
  );
}

/** The code a refused call answered with, or 'ok'. */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.details.appErrorCode;
    throw err;
  }
}

describe('pending transfers over the bus', () => {
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
    expect(await balance(partnerId, userId)).toEqual({ userId, coins: 10, available: 10, pending: 25.5 });
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
    expect(await balance(partnerId, userId)).toEqual({ userId, coins: 35.5, available: 35.5, pending: 0 });
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
