import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { OnboardingDeps } from '../deps.ts';
import { requirePartner } from './partner.ts';

/**
 * Another partner's user or tier is answered exactly like a missing one (404), so that no partner
 * learns what another has. The composite foreign key guarantees the same in the data.
 */
export function upgradeTierHandler(deps: OnboardingDeps) {
  return handle(onboarding.upgradeTier, async ({ partnerId, body }) => {
    const partner = requirePartner(partnerId);
    if (body.partnerId && body.partnerId.toLowerCase() !== partner.toLowerCase())
      throw AppError.notFound('partner not found');
    return deps.orm.em.transactional(async (tx) => {
      const [tier] = await tx.execute<{ id: string }[]>(
        'SELECT id FROM tiers WHERE partner_id = ? AND id = ?',
        [partner, body.tierId],
      );
      if (!tier) throw AppError.notFound('tier not found');
      const updated = await tx.execute<{ id: string }[]>(
        'UPDATE users SET tier_id = ?, updated_at = now() WHERE partner_id = ? AND user_id = ? RETURNING id',
        [body.tierId, partner, body.userId],
      );
      if (updated.length === 0) throw AppError.notFound('user not found');
      return {};
    });
  });
}
