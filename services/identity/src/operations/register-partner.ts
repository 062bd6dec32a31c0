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
import { insertMember } from '../domain/team/members.ts';

export function registerPartnerHandler(deps: IdentityDeps) {
  return handle(identity.registerPartner, async ({ body }) => {
    for (const field of ['userDetailsUrl', 'webhookUrl'] as const) {
      const url = body[field];
      const refusal = url ? urlRefusal(url, deps.config.APP_MODE) : undefined;
      if (refusal) throw AppError.badRequest(`${field} ${refusal}`);
    }
    // One id per partner: `id` (and login's `user.id`) is the `partnerId` every other call expects.
    const partnerId = randomUUID();
    const email = body.email.toLowerCase();
    const passwordHash = await hashPassword(body.password);
    // The partner and its first member, its owner, who logs in with the partner's e-mail.
    return deps.db.em.transactional(async (tx) => {
      const partner = await insertPartner(tx, {
        id: partnerId,
        partnerId,
        applicationName: body.applicationName,
        clientId: newClientId(),
        redirectUrl: body.redirectUrl,
        webRedirectUrl: body.webRedirectUrl,
        mobileRedirectUrl: body.mobileRedirectUrl,
        email,
        partnerName: body.partnerName,
        userDetailsUrl: body.userDetailsUrl,
        passwordHash,
        webhookUrl: body.webhookUrl ?? null,
        webhookSecret: body.webhookUrl ? sealWebhookSecret(deps.kek, partnerId, newWebhookSecret()) : null,
      });
      await insertMember(tx, { partnerId, email, passwordHash, role: 'owner' });
      return partnerView(partner);
    });
  });
}
