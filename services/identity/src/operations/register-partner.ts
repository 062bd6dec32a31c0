import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { urlRefusal } from '@coin/outbound';
import type { IdentityDeps } from '../deps.ts';
import { insertPartner } from '../domain/partners/partner-store.ts';
import { partnerView } from '../domain/partners/partner-view.ts';
import { hashPassword } from '../domain/security/passwords.ts';
import { newClientId, newWebhookSecret } from '../domain/security/secrets.ts';
import { sealWebhookSecret } from '../domain/security/webhook-secrets.ts';

export function registerPartnerHandler(deps: IdentityDeps) {
  return handle(identity.registerPartner, async ({ body }) => {
    for (const field of ['userDetailsUrl', 'webhookUrl'] as const) {
      const url = body[field];
      const refusal = url ? urlRefusal(url, deps.config.APP_MODE) : undefined;
      if (refusal) throw AppError.badRequest(`${field} ${refusal}`);
    }
    // One id per partner: `id` (and login's `user.id`) is the `partnerId` every other call expects.
    const partnerId = randomUUID();
    const partner = await insertPartner(deps.db.em, {
      id: partnerId,
      partnerId,
      applicationName: body.applicationName,
      clientId: newClientId(),
      redirectUrl: body.redirectUrl,
      webRedirectUrl: body.webRedirectUrl,
      mobileRedirectUrl: body.mobileRedirectUrl,
      email: body.email.toLowerCase(),
      partnerName: body.partnerName,
      userDetailsUrl: body.userDetailsUrl,
      passwordHash: await hashPassword(body.password),
      webhookUrl: body.webhookUrl ?? null,
      webhookSecret: body.webhookUrl ? sealWebhookSecret(deps.kek, partnerId, newWebhookSecret()) : null,
    });
    return partnerView(partner);
  });
}
