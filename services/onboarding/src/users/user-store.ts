import type { onboarding } from '@coin/contracts';
import { boundQuery, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import { storedUser, USER_COLUMNS, type UserRow } from '../processing/stored-user.ts';

export async function findUser(
  em: EntityManager,
  partnerId: string,
  userId: string,
): Promise<onboarding.StoredUser> {
  const [row] = await boundQuery<UserRow>(
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
 */
export async function moveToTier(em: EntityManager, partnerId: string, userId: string, tierId: string) {
  await em.transactional(async (tx) => {
    const [tier] = await boundQuery<{ id: string }>(
      tx,
      'SELECT id FROM tiers WHERE partner_id = $1 AND id = $2',
      [partnerId, tierId],
    );
    if (!tier) throw AppError.notFound('tier not found');
    const updated = await boundQuery<{ id: string }>(
      tx,
      'UPDATE users SET tier_id = $1, updated_at = now() WHERE partner_id = $2 AND user_id = $3 RETURNING id',
      [tierId, partnerId, userId],
    );
    if (updated.length === 0) throw AppError.notFound('user not found');
  });
}
