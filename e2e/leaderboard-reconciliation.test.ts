import { randomUUID } from 'node:crypto';
import { CoinApiError } from '@coin/sdk';
import { eventuallyPasses, type Stack, seededRandom } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boardAnswersExpired,
  forgetPartnerIndex,
  sumCoins,
  wholeCoinBoard,
  wholePointsBoard,
} from './support/leaderboard.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let partner: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules', 'leaderboard'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    REWARD_RETRY_POLL_MS: '100',
    REWARD_RETRY_BASE_MS: '100',
  });
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await stack?.stop();
});

/**
 * From the wallet's ledger, per user: the sum of the CR entries in the UTC month `ym` (YYYY-MM), and
 * the sum of the rule rewards (CR entries narrated `reward: <rule>`), the points they earn. Reversed
 * entries (`refunded`) count on no board, and neither do reversals (a reversed debit is no earning).
 */
async function fromLedger(users: readonly string[], ym: string) {
  const coins = new Map<string, string>();
  const points = new Map<string, number>();
  for (const userId of users) {
    const credits: string[] = [];
    const rewards: string[] = [];
    for await (const e of partnerClient(stack.api, partner).iterate('getUserTransactions', {
      userId,
      limit: 100,
    })) {
      if (e.debitOrCredit !== 'CR' || e.refunded || e.transactionType === 'reversal') continue;
      if (e.createdAt.startsWith(ym)) credits.push(e.coins.toFixed(2));
      if (e.narration.startsWith('reward: ')) rewards.push(e.coins.toFixed(2));
    }
    if (credits.length) coins.set(userId, sumCoins(credits));
    if (rewards.length) points.set(userId, Number(sumCoins(rewards)));
  }
  return { coins, points };
}

describe('reconciliation with the wallet ledger and rule rewards (through the gateway)', () => {
  it('after a random workload, and again after losing the index', async () => {
    const token = partner.accessToken;
    const sdk = partnerClient(stack.api, partner);
    const users = await onboardUsers(stack.api, token, 12);
    const rules = await Promise.all(
      ['12.25', '40', '7.5'].map(async (coinValue) => {
        const name = `rule ${randomUUID().slice(0, 8)}`;
        await sdk.createRule({ name, coinValue, maxNumberOfParticipant: '100', condition: 'reconciliation' });
        return { name, coinValue };
      }),
    );
    // A refusal with another status than the ones allowed fails the workload.
    const refusedWith =
      (...statuses: number[]) =>
      (err: unknown) => {
        if (!(err instanceof CoinApiError && statuses.includes(err.status))) throw err;
      };
    const random = seededRandom('leaderboard reconciliation workload');
    const work: Promise<unknown>[] = [];
    // A quarter of the entries are reversed once they exist: a reversed credit or reward leaves its
    // boards, a reversed debit changes none (422: the user already spent a credit's coins).
    // A user rewarded twice by one rule gets the same entry back both times: it is reversed once.
    const chosen = new Set<string>();
    const reverseSome = (res: { coinsLedger: { id: string } } | undefined) => {
      if (!res || random.below(4) !== 0 || chosen.has(res.coinsLedger.id)) return undefined;
      chosen.add(res.coinsLedger.id);
      return sdk.reverseTransfer({ ledgerEntryId: res.coinsLedger.id }).catch(refusedWith(422));
    };
    for (let i = 0; i < 80; i++) {
      const userId = random.pick(users);
      const kind = random.below(10);
      if (kind < 6) {
        const coins = (1 + random.below(50_000)) / 100;
        work.push(sdk.transferToUser({ userId, coins }).then(reverseSome));
      } else if (kind < 8) {
        // A debit: counts on no board (refused when the wallet is short, which is fine here).
        work.push(sdk.transferFromUser({ userId, coins: 1 }).then(reverseSome, refusedWith(422)));
      } else {
        const rule = random.pick(rules);
        // 409: the same user and rule asked at the same moment; the other call pays.
        work.push(sdk.rewardUser({ userId, ruleName: rule.name }).then(reverseSome, refusedWith(409)));
      }
    }
    await Promise.all(work);

    const now = new Date();
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const ym = `${year}-${String(month).padStart(2, '0')}`;
    // The ledger is read with each comparison: a reward left pending by a 409 race is paid shortly.
    async function boardsMatch() {
      const { coins: expectedCoins, points: expectedPoints } = await fromLedger(users, ym);
      const coins = await wholeCoinBoard(stack.api, token, year, month);
      expect(new Map(coins.map((e) => [e.userId, e.coins]))).toEqual(expectedCoins);
      const ranked = [...coins].sort((a, b) => Number(b.coins) - Number(a.coins));
      expect(coins.map((e) => e.coins)).toEqual(ranked.map((e) => e.coins));
      const pointsBoard = await wholePointsBoard(stack.api, token);
      expect(new Map(pointsBoard.map((e) => [e.user?.userId, e.points]))).toEqual(expectedPoints);
      return { coins, pointsBoard };
    }

    const before = await eventuallyPasses(boardsMatch);
    expect(
      await forgetPartnerIndex(stack.env.REDIS_URL ?? 'redis://127.0.0.1:6379', partner.partnerId),
    ).toBeGreaterThan(0);
    await boardAnswersExpired();
    const after = await boardsMatch();
    expect(after.coins).toEqual(before.coins);
    expect(after.pointsBoard).toEqual(before.pointsBoard);
    // And once the index is back.
    await eventuallyPasses(async () => {
      const res = await boardsMatch();
      expect(res.coins).toEqual(before.coins);
    });
  }, 60_000);
});
