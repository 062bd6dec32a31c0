import { EVENT_SUBJECTS, type onboarding } from '@coin/contracts';
import { boundRow, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import { type AuditedChange, addToOutbox, auditEvent } from '@coin/events';
import { storedUser, USER_COLUMNS, type UserRow } from '../processing/stored-user.ts';
import { recordMove, tierById } from '../tiers/tier-moves.ts';

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
 * A move to another tier publishes `userTierChanged` (moved by the partner) in the same transaction
 * and starts the user's period in it (true: the caller wakes the outbox relay); a move to the tier the
 * user is in changes nothing and publishes nothing.
 */
export async function moveToTier(
  em: EntityManager,
  partnerId: string,
  userId: string,
  tierId: string,
  by: Pick<AuditedChange, 'actor' | 'clientIp'> = {},
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const tier = await tierById(tx, partnerId, tierId);
    if (!tier) throw AppError.notFound('tier not found');
    const moved = await boundRow<{ previous: string | null; changed: boolean }>(
      tx,
      `UPDATE users u SET tier_id = $1, updated_at = now()
         FROM (SELECT id, tier_id FROM users WHERE partner_id = $2 AND user_id = $3 FOR UPDATE) old
        WHERE u.id = old.id
        RETURNING old.tier_id AS previous, old.tier_id IS DISTINCT FROM $1 AS changed`,
      [tierId, partnerId, userId],
    );
    if (!moved) throw AppError.notFound('user not found');
    if (!moved.changed) return false;
    await recordMove(tx, { partnerId, userId, tier }, moved.previous, 'partner');
    await addToOutbox(
      tx,
      auditEvent(EVENT_SUBJECTS.onboardingAudit, {
        ...by,
        partnerId,
        action: 'upgradeTier',
        summary: `moved user ${userId} to the tier ${tier.name}`,
        details: { userId, tierId, tierName: tier.name, previousTierId: moved.previous },
      }),
    );
    return true;
  });
}
