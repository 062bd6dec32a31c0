import { eventually, type Stack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerClient, registerAndLogin } from './support/partners.ts';
import { onboardUsers, queryRulesDb } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

/**
 * Tier rules through the gateway: thresholds on coins earned in a rolling window move a user up on
 * the credit that crosses one, and the review at the end of the period moves them down by the
 * partner's policy; each move is one USER_TIER_CHANGED saying who moved the user.
 */
let stack: Stack;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    TIER_REVIEW_POLL_MS: '50',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await stack?.stop();
});

const onboardingDb = (sql: string, params: unknown[]) =>
  queryRulesDb(stack.env.ONBOARDING_DATABASE_URL!, sql, params);

/**
 * A period passes for the user: the credits counted move back by `days` (out of a window that
 * short), and the scheduled review becomes due now, as it would at the period's end.
 */
async function periodEnds(partnerId: string, userId: string, days: number) {
  await onboardingDb('UPDATE user_earnings SET day = day - $3::int WHERE partner_id = $1 AND user_id = $2', [
    partnerId,
    userId,
    days,
  ]);
  const due = await onboardingDb(
    `UPDATE tier_reviews SET next_attempt_at = now() WHERE partner_id = $1 AND user_id = $2 AND status = 'scheduled'
     RETURNING id`,
    [partnerId, userId],
  );
  expect(due).toHaveLength(1);
}

async function programme(downgrade: 'one_level' | 'reevaluate') {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const partner = await registerAndLogin(stack.api);
  const sdk = partnerClient(stack.api, partner);
  await sdk.setWebhook({ url: receiver.url, events: ['USER_TIER_CHANGED'] });
  expect(await sdk.setTierPolicy({ windowDays: 30, periodDays: 30, downgrade })).toEqual({
    windowDays: 30,
    periodDays: 30,
    downgrade,
  });
  const bronze = await sdk.createTier({ name: 'bronze', rank: 1, minCoins: 0 });
  const silver = await sdk.createTier({ name: 'silver', rank: 2, minCoins: 100 });
  const gold = await sdk.createTier({ name: 'gold', rank: 3, minCoins: 300 });
  expect(gold.minCoins).toBe(300);
  const [userId] = await onboardUsers(stack.api, partner.accessToken, 1);
  const tierOf = async () => (await sdk.getPartnerUser({ userId })).tierId;
  const waitForTier = (tierId: string) =>
    eventually(async () => ((await tierOf()) === tierId ? true : undefined));
  const moves = () =>
    receiver.received
      .map((r) => r.json)
      .sort((a, b) => a.sequence - b.sequence)
      .map((e) => [e.tierName, e.previousTierId, e.movedBy]);
  const credit = (coins: number) => sdk.transferToUser({ userId, coins });
  return { partner, sdk, userId, tiers: { bronze, silver, gold }, waitForTier, moves, credit, tierOf };
}

describe('tier rules', () => {
  it('moves a user up on the credit that crosses a threshold, once, and one level down at the period end', async () => {
    const { partner, sdk, userId, tiers, waitForTier, moves, credit } = await programme('one_level');
    await credit(50);
    await waitForTier(tiers.bronze.id);
    await credit(60);
    await waitForTier(tiers.silver.id);
    await credit(10);
    await eventually(async () => (moves().length === 2 ? true : undefined));
    expect(moves()).toEqual([
      ['bronze', null, 'rule'],
      ['silver', tiers.bronze.id, 'rule'],
    ]);

    // The period ends with 120 coins earned a month ago: nothing in the window, one level down.
    await periodEnds(partner.partnerId, userId, 31);
    await waitForTier(tiers.bronze.id);
    await eventually(async () => (moves().length === 3 ? true : undefined));
    expect(moves()[2]).toEqual(['bronze', tiers.silver.id, 'rule']);
    // The next period's end keeps the user in bronze (its threshold is 0): no move, no webhook.
    await periodEnds(partner.partnerId, userId, 31);
    await eventually(async () => {
      const [row] = await queryRulesDb(
        stack.env.ONBOARDING_DATABASE_URL!,
        `SELECT count(*)::int AS done FROM tier_reviews WHERE partner_id = $1 AND user_id = $2 AND status = 'done'`,
        [partner.partnerId, userId],
      );
      return row.done === 2 ? true : undefined;
    });

    // The partner still moves users by hand, said so in the webhook.
    await sdk.upgradeTier({ userId, tierId: tiers.gold.id });
    await eventually(async () => (moves().length === 4 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(moves()).toEqual([
      ['bronze', null, 'rule'],
      ['silver', tiers.bronze.id, 'rule'],
      ['bronze', tiers.silver.id, 'rule'],
      ['gold', tiers.bronze.id, 'partner'],
    ]);
  }, 60_000);

  it('re-evaluates at the period end: down to the tier the window reaches, several levels at once', async () => {
    const { partner, userId, tiers, waitForTier, moves, credit } = await programme('reevaluate');
    await credit(350);
    await waitForTier(tiers.gold.id);
    await eventually(async () => (moves().length === 1 ? true : undefined));
    expect(moves()).toEqual([['gold', null, 'rule']]);
    await periodEnds(partner.partnerId, userId, 31);
    await waitForTier(tiers.bronze.id);
    await eventually(async () => (moves().length === 2 ? true : undefined));
    expect(moves()[1]).toEqual(['bronze', tiers.gold.id, 'rule']);
  }, 60_000);
});
