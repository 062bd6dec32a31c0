import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { Partner } from '../entities.ts';
import { partnerView } from './partner-view.ts';

export function getMeHandler(deps: IdentityDeps) {
  return handle(identity.getMe, async ({ partnerId }) => {
    const partner = await deps.orm.em.findOne(Partner, { partnerId: partnerId! });
    if (!partner) throw AppError.notFound('partner not found');
    return {
      ...partnerView(partner),
      webhookUrl: partner.webhookUrl ?? null,
      createdAt: partner.createdAt.toISOString(),
    };
  });
}
