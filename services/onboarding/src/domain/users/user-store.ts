import { EVENT_SUBJECTS, type onboarding, type UserTierChangedEvent } from '@coin/contracts';
import { boundRow, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import { addToOutbox } from '@coin/events';
import { storedUser, USER_COLUMNS, type UserRow } from '../processing/stored-user.ts';

export async function findUser(
  em: EntityManager,
  partnerId: string,
  userId: string,
): Promise<onboarding.StoredUser> {
  const row = await boundRow<UserRow>(
    em,
    `SELECT ${USER_COLUMNS} FROM users WHERE partner_id = $1 AND user_id = $2`,
    [partnerId, userId],
  );
  if (!row) throw AppError.notFound('user not found');
  return storedUser(row);
}

/**
 * Moves the partner's user to one of the partner's tiers. Another partner's user or tier is
 * answered exactly like a missing one (404); the composite foreign key guarantees the same in the data.
 * A move to another tier publishes `userTierChanged` in the same transaction (true: the caller wakes
 * the outbox relay); a move to the tier the user is in changes nothing and publishes nothing.
 */
export async function moveToTier(
  em: EntityManager,
  partnerId: string,
  userId: string,
  tierId: string,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const tier = await boundRow<{ id: string; name: string }>(
      tx,
      'SELECT id, name FROM tiers WHERE partner_id = $1 AND id = $2',
      [partnerId, tierId],
    );
    if (!tier) throw AppError.notFound('tier not found');
    const moved = await boundRow<{ previous: string | null; changed: boolean; at: string }>(
      tx,
      `UPDATE users u SET tier_id = $1, updated_at = now()
         FROM (SELECT id, tier_id FROM users WHERE partner_id = $2 AND user_id = $3 FOR UPDATE) old
        WHERE u.id = old.id
        RETURNING old.tier_id AS previous, old.tier_id IS DISTINCT FROM $1 AS changed, clock_timestamp() AS at`,
      [tierId, partnerId, userId],
    );
    if (!moved) throw AppError.notFound('user not found');
    if (!moved.changed) return false;
    const event: Omit<UserTierChangedEvent, 'eventId'> = {
      partnerId,
      userId,
      tierId,
      tierName: tier.name,
      previousTierId: moved.previous,
      changedAt: new Date(moved.at).toISOString(),
    };
    await addToOutbox(tx, { subject: EVENT_SUBJECTS.userTierChanged, payload: event });
    return true;
  });
}
