import { handle } from '@coin/bus';
import { onboarding, paginate } from '@coin/contracts';
import type { OnboardingDeps } from '../deps.ts';
import { policyOf, setPolicy } from '../domain/tiers/tier-policy.ts';
import { createTier, tiersPage } from '../domain/tiers/tier-store.ts';

export function createTierHandler(deps: OnboardingDeps) {
  return handle(onboarding.createTier, async ({ partnerId, body }) =>
    createTier(deps.db.em, partnerId, body),
  );
}

export function listTiersHandler(deps: OnboardingDeps) {
  return handle(onboarding.listTiers, async ({ partnerId, query }) => {
    const { tiers, count } = await tiersPage(deps.db.em, partnerId, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    return { data: tiers, ...paginate(count, query.page, query.limit) };
  });
}

export function getTierPolicyHandler(deps: OnboardingDeps) {
  return handle(onboarding.getTierPolicy, async ({ partnerId }) => policyOf(deps.db.em, partnerId));
}

export function setTierPolicyHandler(deps: OnboardingDeps) {
  return handle(onboarding.setTierPolicy, async ({ partnerId, body }) =>
    setPolicy(deps.db.em, partnerId, body),
  );
}
