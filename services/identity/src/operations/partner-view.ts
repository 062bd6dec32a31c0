import type { InferEntity } from '@mikro-orm/core';
import type { Partner } from '../entities.ts';

type PartnerRow = InferEntity<typeof Partner>;

/** The specification's Partner shape: never the password hash or the webhook secret. */
export function partnerView(p: PartnerRow) {
  return {
    id: p.id,
    partnerId: p.partnerId,
    applicationName: p.applicationName,
    clientId: p.clientId,
    redirectUrl: p.redirectUrl,
    webRedirectUrl: p.webRedirectUrl,
    mobileRedirectUrl: p.mobileRedirectUrl,
    email: p.email,
    partnerName: p.partnerName,
    userDetailsUrl: p.userDetailsUrl,
  };
}
