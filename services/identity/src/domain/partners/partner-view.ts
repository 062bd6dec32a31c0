import type { PartnerRecord } from './partner-store.ts';

/** The Partner of docs/specification.md ("Partner"): never the password hash or the webhook secret. */
export function partnerView(p: PartnerRecord) {
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
