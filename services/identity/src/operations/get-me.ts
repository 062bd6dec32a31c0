import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { findPartner, subscribedKinds } from '../domain/partners/partner-store.ts';
import { partnerView } from '../domain/partners/partner-view.ts';

export function getMeHandler(deps: IdentityDeps) {
  return handle(identity.getMe, async ({ partnerId }) => {
    const partner = await findPartner(deps.db.em, partnerId);
    if (!partner) throw AppError.notFound('partner not found');
    return {
      ...partnerView(partner),
      webhookUrl: partner.webhookUrl,
      webhookEvents: subscribedKinds(partner.webhookEvents),
      createdAt: isoTime(partner.createdAt),
    };
  });
}
