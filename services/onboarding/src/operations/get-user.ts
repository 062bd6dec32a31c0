import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import type { EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import type { OnboardingDeps } from '../deps.ts';
import { storedUser, USER_COLUMNS, type UserRow } from '../processing/stored-user.ts';
import { requirePartner } from './partner.ts';

export async function findUser(
  em: EntityManager,
  partnerId: string,
  userId: string,
): Promise<onboarding.StoredUser> {
  const [row] = await em.execute<UserRow[]>(
    `SELECT ${USER_COLUMNS} FROM users WHERE partner_id = ? AND user_id = ?`,
    [partnerId, userId],
  );
  if (!row) throw AppError.notFound('user not found');
  return storedUser(row);
}

/** Internal: wallet and rules ask whether a user exists for a partner. */
export function getUserHandler(deps: OnboardingDeps) {
  return handle(onboarding.getUser, async ({ partnerId, body }) =>
    findUser(deps.orm.em, partnerId, body.userId),
  );
}

export function getPartnerUserHandler(deps: OnboardingDeps) {
  return handle(onboarding.getPartnerUser, async ({ partnerId, params }) =>
    findUser(deps.orm.em, requirePartner(partnerId), params.userId),
  );
}
