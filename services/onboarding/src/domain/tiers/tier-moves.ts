import { randomUUID } from 'node:crypto';
import { EVENT_SUBJECTS, type UserTierChangedEvent } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { addToOutbox } from '@coin/events';
import { policyOf } from './tier-policy.ts';

/** A tier as tier rules read it: `minCoins` null for a tier only the partner moves users to. */
export interface RankedTier {
  id: string;
  name: string;
  rank: number;
  minCoins: number | null;
}

const TIER_COLUMNS = 'id, name, rank, min_coins::float8 AS "minCoins"';

/** The partner's tiers with a threshold, lowest rank first. */
export async function thresholdTiers(tx: EntityManager, partnerId: string): Promise<RankedTier[]> {
  return boundQuery<RankedTier>(
    tx,
    `SELECT ${TIER_COLUMNS} FROM tiers WHERE partner_id = $1 AND min_coins IS NOT NULL ORDER BY rank, created_at`,
    [partnerId],
  );
}

export async function tierById(
  tx: EntityManager,
  partnerId: string,
  id: string,
): Promise<RankedTier | undefined> {
  return boundRow<RankedTier>(tx, `SELECT ${TIER_COLUMNS} FROM tiers WHERE partner_id = $1 AND id = $2`, [
    partnerId,
    id,
  ]);
}

/** The coins the user was credited in the partner's window (UTC days, today included). */
export async function earnedInWindow(
  tx: EntityManager,
  partnerId: string,
  userId: string,
  windowDays: number,
): Promise<number> {
  const row = await boundRow<{ earned: number }>(
    tx,
    `SELECT coalesce(sum(coins), 0)::float8 AS earned FROM user_earnings
      WHERE partner_id = $1 AND user_id = $2 AND day > (now() AT TIME ZONE 'UTC')::date - $3::int`,
    [partnerId, userId, windowDays],
  );
  return row?.earned ?? 0;
}

/**
 * Records a move the caller made (the user's row updated, locked by the caller's transaction): the
 * `userTierChanged` event, and the user's next review, replacing a scheduled one. A tier with a
 * threshold is reviewed at the end of the partner's period; a tier without one is the partner's to
 * change, and is never reviewed.
 */
export async function recordMove(
  tx: EntityManager,
  move: { partnerId: string; userId: string; tier: Pick<RankedTier, 'id' | 'name' | 'minCoins'> },
  previousTierId: string | null,
  movedBy: 'rule' | 'partner',
): Promise<void> {
  const [at] = await boundQuery<{ at: string }>(tx, 'SELECT clock_timestamp() AS at', []);
  const event: Omit<UserTierChangedEvent, 'eventId'> = {
    partnerId: move.partnerId,
    userId: move.userId,
    tierId: move.tier.id,
    tierName: move.tier.name,
    previousTierId,
    changedAt: new Date(at.at).toISOString(),
    movedBy,
  };
  await addToOutbox(tx, { subject: EVENT_SUBJECTS.userTierChanged, payload: event });
  await scheduleReview(tx, move.partnerId, move.userId, move.tier);
}

/** Cancels the user's scheduled review and, for a tier with a threshold, schedules the next. */
export async function scheduleReview(
  tx: EntityManager,
  partnerId: string,
  userId: string,
  tier: Pick<RankedTier, 'id' | 'minCoins'>,
): Promise<void> {
  await boundQuery(
    tx,
    `UPDATE tier_reviews SET status = 'cancelled' WHERE partner_id = $1 AND user_id = $2 AND status = 'scheduled'`,
    [partnerId, userId],
  );
  if (tier.minCoins === null) return;
  const policy = await policyOf(tx, partnerId);
  await boundQuery(
    tx,
    `INSERT INTO tier_reviews (id, partner_id, user_id, tier_id, next_attempt_at)
     VALUES ($1, $2, $3, $4, clock_timestamp() + make_interval(days => $5::int))`,
    [randomUUID(), partnerId, userId, tier.id, policy.periodDays],
  );
}
