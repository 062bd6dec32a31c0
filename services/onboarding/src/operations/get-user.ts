import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import type { OnboardingDeps } from '../deps.ts';
import { findUser } from '../domain/users/user-store.ts';

/** Internal: wallet and rules ask whether a user exists for a partner. */
export function getUserHandler(deps: OnboardingDeps) {
  return handle(onboarding.getUser, async ({ partnerId, body }) =>
    findUser(deps.db.em, partnerId, body.userId),
  );
}

export function getPartnerUserHandler(deps: OnboardingDeps) {
  return handle(onboarding.getPartnerUser, async ({ partnerId, params }) =>
    findUser(deps.db.em, partnerId, params.userId),
  );
}
