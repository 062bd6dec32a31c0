import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { earnedInWindow, recordMove, thresholdTiers } from './tier-moves.ts';
import { policyOf } from './tier-policy.ts';

/**
 * Counts a credit to the user (in the caller's transaction, which records the event as applied) and
 * moves the user up to the highest tier whose threshold the window's earnings reach, if it ranks above
 * the user's tier. Returns true when the user moved (the caller wakes the outbox relay). A user
 * unknown here (never onboarded by the partner) is not counted.
 */
export async function countCredit(
  tx: EntityManager,
  credit: { partnerId: string; userId: string; coins: string; createdAt: string },
): Promise<boolean> {
  const user = await boundRow<{ tierId: string | null; rank: number | null }>(
    tx,
    `SELECT u.tier_id AS "tierId", t.rank FROM users u LEFT JOIN tiers t ON t.id = u.tier_id
      WHERE u.partner_id = $1 AND u.user_id = $2 FOR UPDATE OF u`,
    [credit.partnerId, credit.userId],
  );
  if (!user) return false;
  await boundQuery(
    tx,
    `INSERT INTO user_earnings (partner_id, user_id, day, coins)
     VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4::numeric)
     ON CONFLICT (partner_id, user_id, day) DO UPDATE SET coins = user_earnings.coins + EXCLUDED.coins`,
    [credit.partnerId, credit.userId, credit.createdAt, credit.coins],
  );
  const tiers = await thresholdTiers(tx, credit.partnerId);
  if (tiers.length === 0) return false;
  const policy = await policyOf(tx, credit.partnerId);
  const earned = await earnedInWindow(tx, credit.partnerId, credit.userId, policy.windowDays);
  const reached = tiers.filter((t) => (t.minCoins ?? 0) <= earned).at(-1);
  if (!reached || (user.rank !== null && reached.rank <= user.rank)) return false;
  await boundQuery(
    tx,
    'UPDATE users SET tier_id = $3, updated_at = now() WHERE partner_id = $1 AND user_id = $2',
    [credit.partnerId, credit.userId, reached.id],
  );
  await recordMove(
    tx,
    { partnerId: credit.partnerId, userId: credit.userId, tier: reached },
    user.tierId,
    'rule',
  );
  return true;
}
