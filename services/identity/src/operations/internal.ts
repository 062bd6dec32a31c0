import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { findPartner } from '../domain/partners/partner-store.ts';
import { openWebhookSecret } from '../domain/security/webhook-secrets.ts';

export function getJwksHandler(deps: IdentityDeps) {
  return handle(identity.getJwks, async () => deps.signer.jwks());
}

async function profileOf(deps: IdentityDeps, partnerId: string) {
  const partner = await findPartner(deps.db.em, partnerId);
  if (!partner) throw AppError.notFound('partner not found');
  return {
    profile: {
      partnerId: partner.partnerId,
      applicationName: partner.applicationName,
      partnerName: partner.partnerName,
      email: partner.email,
      userDetailsUrl: partner.userDetailsUrl,
    },
    partner,
  };
}

export function getPartnerHandler(deps: IdentityDeps) {
  return handle(identity.getPartner, async ({ partnerId }) => {
    const { profile, partner } = await profileOf(deps, partnerId);
    return {
      ...profile,
      webhookUrl: partner.webhookUrl,
      webhookSecret: openWebhookSecret(deps.kek, partnerId, partner.webhookSecret),
      webhookEvents: partner.webhookEvents,
    };
  });
}

export function getPartnerProfileHandler(deps: IdentityDeps) {
  return handle(
    identity.getPartnerProfile,
    async ({ partnerId }) => (await profileOf(deps, partnerId)).profile,
  );
}
