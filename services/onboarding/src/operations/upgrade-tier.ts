import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { OnboardingDeps } from '../deps.ts';
import { moveToTier } from '../domain/users/user-store.ts';

/** Another partner's user, tier or partnerId is answered exactly like a missing one (404). */
export function upgradeTierHandler(deps: OnboardingDeps) {
  return handle(onboarding.upgradeTier, async ({ partnerId, body, actor, clientIp }) => {
    if (body.partnerId && body.partnerId.toLowerCase() !== partnerId.toLowerCase())
      throw AppError.notFound('partner not found');
    if (await moveToTier(deps.db.em, partnerId, body.userId, body.tierId, { actor, clientIp }))
      deps.relay.notify();
    return {};
  });
}
