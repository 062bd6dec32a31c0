import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { onboarding, paginate } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { OnboardingDeps } from '../deps.ts';
import { Tier } from '../entities.ts';
import { requirePartner } from './partner.ts';

type TierEntity = InstanceType<typeof Tier.class>;

function tierView(t: TierEntity) {
  return {
    id: t.id,
    name: t.name,
    rank: t.rank,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export function createTierHandler(deps: OnboardingDeps) {
  return handle(onboarding.createTier, async ({ partnerId, body }) => {
    const em = deps.orm.em;
    const tier = em.create(Tier, {
      id: randomUUID(),
      partnerId: requirePartner(partnerId),
      name: body.name,
      rank: body.rank,
    });
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException)
        throw AppError.conflict('a tier with this name already exists');
      throw err;
    }
    return tierView(tier);
  });
}

export function listTiersHandler(deps: OnboardingDeps) {
  return handle(onboarding.listTiers, async ({ partnerId, query }) => {
    const [tiers, count] = await deps.orm.em.findAndCount(
      Tier,
      { partnerId: requirePartner(partnerId) },
      {
        orderBy: { rank: 'asc', createdAt: 'asc' },
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      },
    );
    return { data: tiers.map(tierView), ...paginate(count, query.page, query.limit) };
  });
}
