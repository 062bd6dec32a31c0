import { handle } from '@coin/bus';
import { EVENT_SUBJECTS, onboarding, paginate } from '@coin/contracts';
import { addToOutbox, auditEvent } from '@coin/events';
import type { OnboardingDeps } from '../deps.ts';
import { policyOf, setPolicy } from '../domain/tiers/tier-policy.ts';
import { createTier, tiersPage } from '../domain/tiers/tier-store.ts';

/** The tier and its audit log entry commit together. */
export function createTierHandler(deps: OnboardingDeps) {
  return handle(onboarding.createTier, async ({ partnerId, body, actor, clientIp }) => {
    const tier = await deps.db.em.fork().transactional(async (tx) => {
      const created = await createTier(tx, partnerId, body);
      await addToOutbox(
        tx,
        auditEvent(EVENT_SUBJECTS.onboardingAudit, {
          partnerId,
          actor,
          clientIp,
          action: onboarding.createTier.name,
          summary: `created the tier ${created.name} (rank ${created.rank})`,
          details: { tierId: created.id, name: created.name, rank: created.rank },
        }),
      );
      return created;
    });
    deps.relay.notify();
    return tier;
  });
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
