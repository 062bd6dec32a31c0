import { randomUUID } from 'node:crypto';
import { identity, onboarding, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { eventually, queryDatabase, type ServiceAlone, seededRandom, startServiceAlone } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWallet } from '../src/service.ts';

// The wallet alone; onboarding's getUser and identity's getPartnerProfile are answered by stand-ins that
// keep those services' contracts, for the users and partners each test declares.
let svc: ServiceAlone;
const users = new Map<string, Set<string>>();

beforeAll(async () => {
  svc = await startServiceAlone('wallet', startWallet);
  svc.standIn(onboarding.getUser, async ({ partnerId, body }) => {
    const userId = body.userId.toLowerCase();
    if (!users.get(partnerId)?.has(userId)) throw AppError.notFound('user not found');
    const at = new Date().toISOString();
    return { id: randomUUID(), userId, userData: {}, tierId: null, createdAt: at, updatedAt: at };
  });
  svc.standIn(identity.getPartnerProfile, async ({ partnerId }) => ({
    partnerId,
    applicationName: 'Wallet test',
    partnerName: 'Wallet Test Ltd',
    email: 'wallet@example.com',
    userDetailsUrl: 'https://partner.example/users',
  }));
});

afterAll(async () => {
  await svc?.stop();
});

function partnerWithUsers(n: number) {
  const partnerId = randomUUID();
  const ids = Array.from({ length: n }, () => randomUUID());
  users.set(partnerId, new Set(ids));
  return { partnerId, ids };
}

const balance = async (partnerId: string, userId: string) =>
  (await svc.call(wallet.getBalance, { partnerId, query: { userId } })).coins;

describe('wallet over the bus', () => {
  it("credits a user's wallet (CR) and debits it back (DE), never below zero", async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const [userId] = ids;
    const credit = await svc.call(wallet.transferToUser, { partnerId, body: { userId, coins: 12.5 } });
    expect(credit).toMatchObject({
      isExisting: false,
      coinsLedger: { userId, debitOrCredit: 'CR', coins: 12.5 },
    });
    const debit = await svc.call(wallet.transferFromUser, { partnerId, body: { userId, coins: 2.25 } });
    expect(debit.coinsLedger).toMatchObject({ debitOrCredit: 'DE', coins: 2.25 });
    expect(await balance(partnerId, userId)).toBe(10.25);

    const short = await svc.refusal(wallet.transferFromUser, { partnerId, body: { userId, coins: 10.26 } });
    expect([short.status, short.details.appErrorCode]).toEqual([422, 'INSUFFICIENT_BALANCE']);
    expect(await balance(partnerId, userId)).toBe(10.25);
  });

  it('replays a retried transfer with the same Idempotency-Key once, and refuses the key for another body', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const [userId] = ids;
    const request = { partnerId, idempotencyKey: 'order-1', body: { userId, coins: 5 } };
    const first = await svc.call(wallet.transferToUser, request);
    const again = await svc.call(wallet.transferToUser, {
      ...request,
      body: { userId: userId.toUpperCase(), coins: 5.0 },
    });
    expect(again).toEqual({ ...first, isExisting: true });
    const other = await svc.refusal(wallet.transferToUser, { ...request, body: { userId, coins: 6 } });
    expect([other.status, other.details.appErrorCode]).toEqual([422, 'IDEMPOTENCY_CONFLICT']);
    // The same key on the other direction is another request.
    const reverse = await svc.refusal(wallet.transferFromUser, request);
    expect(reverse.details.appErrorCode).toBe('IDEMPOTENCY_CONFLICT');
    expect(await balance(partnerId, userId)).toBe(5);
  });

  it("refuses a user the partner has not onboarded, and another partner's user", async () => {
    const { partnerId } = partnerWithUsers(0);
    const theirs = partnerWithUsers(1);
    for (const userId of [randomUUID(), theirs.ids[0]]) {
      const refused = await svc.refusal(wallet.transferToUser, { partnerId, body: { userId, coins: 1 } });
      expect(refused.status).toBe(404);
    }
  });

  it('keeps every balance equal to its history after a seeded random workload', async () => {
    const random = seededRandom('wallet workload');
    const { partnerId, ids } = partnerWithUsers(4);
    const expected = new Map(ids.map((id) => [id, 0]));
    await Promise.all(
      ids.map(async (userId) => {
        for (let i = 0; i < 12; i++) {
          const cents = 1 + random.below(5_000);
          const credit = random.below(3) > 0;
          const op = credit ? wallet.transferToUser : wallet.transferFromUser;
          try {
            await svc.call(op, { partnerId, body: { userId, coins: cents / 100 } });
            expected.set(userId, expected.get(userId)! + (credit ? cents : -cents));
          } catch (err) {
            expect((err as AppError).details.appErrorCode).toBe('INSUFFICIENT_BALANCE');
            expect(expected.get(userId)!).toBeLessThan(cents);
          }
        }
      }),
    );
    for (const userId of ids) {
      expect(Math.round((await balance(partnerId, userId)) * 100)).toBe(expected.get(userId));
      const history = await svc.call(wallet.getUserTransactions, {
        partnerId,
        query: { userId, page: 1, limit: 100 },
      });
      const sum = history.data.reduce(
        (s, e) => s + Math.round(e.coins * 100) * (e.debitOrCredit === 'CR' ? 1 : -1),
        0,
      );
      expect(sum).toBe(expected.get(userId));
      const times = history.data.map((e) => e.createdAt);
      expect(times).toEqual([...times].sort().reverse());
    }
  });

  it('refuses a transfer that arrives without a partner, and amounts outside the contract', async () => {
    const { partnerId, ids } = partnerWithUsers(1);
    const missing = await svc.refusal(wallet.transferToUser, { body: { userId: ids[0], coins: 1 } } as never);
    expect(missing.status).toBe(401);
    for (const coins of [0, -1, 0.001, 1e-9, 1_000_000_000.01]) {
      const bad = await svc.refusal(wallet.transferToUser, { partnerId, body: { userId: ids[0], coins } });
      expect(bad.status).toBe(400);
    }
    expect(await balance(partnerId, ids[0])).toBe(0);
  });
});

/**
 * The ledger's chain and queue, and Postgres's counters of its tables as the sealer's connection last
 * reported them (at its next idle moment): the deletes from the queue are the sealer's own.
 */
async function sealingStats() {
  const [row] = await queryDatabase<{
    chained: number;
    unsealed: number;
    read_in_full: string;
    sealed: string;
  }>(
    svc.env.WALLET_DATABASE_URL!,
    `SELECT (SELECT count(*) FROM ledger_chain)::int AS chained, (SELECT count(*) FROM ledger_unsealed)::int AS unsealed,
            e.seq_tup_read AS read_in_full, u.n_tup_del AS sealed
       FROM pg_stat_user_tables e, pg_stat_user_tables u
      WHERE e.relname = 'ledger_entries' AND u.relname = 'ledger_unsealed'`,
  );
  return { ...row, readInFull: Number(row.read_in_full), sealed: Number(row.sealed) };
}

/**
 * At least `entries` entries in their chains, none waiting, and the sealer's counters reported: a
 * connection left idle reports them within 10 s (Postgres's PGSTAT_IDLE_INTERVAL).
 */
const allSealed = (entries: number) =>
  eventually(async () => {
    const s = await sealingStats();
    return s.chained >= entries && s.unsealed === 0 && s.sealed === s.chained ? s : undefined;
  }, 30_000);

describe('sealing the ledger into hash chains', () => {
  it('reads only the entries each round seals, however long the ledger already is', async () => {
    const { partnerId, ids } = partnerWithUsers(50);
    const transfers = async (n: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < n) {
            const userId = ids[next++ % ids.length];
            await svc.call(wallet.transferToUser, { partnerId, body: { userId, coins: 1 } });
          }
        }),
      );
    };
    await transfers(4000);
    const before = await allSealed(4000);
    await transfers(20);
    const after = await allSealed(before.chained + 20);
    // A round that read the ledger in full (as a hash join planned for the round's LIMIT did) read
    // every entry written before it.
    expect(after.readInFull - before.readInFull).toBeLessThan(before.chained);
  });
});
