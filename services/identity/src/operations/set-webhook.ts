import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { urlRefusal } from '@coin/outbound';
import type { IdentityDeps } from '../deps.ts';
import { Partner } from '../entities.ts';
import { newWebhookSecret } from '../security/secrets.ts';

/** The signing secret is kept across URL changes unless the partner asks for a new one. */
export function setWebhookHandler(deps: IdentityDeps) {
  return handle(identity.setWebhook, async ({ partnerId, body }) => {
    const refusal = urlRefusal(body.url, deps.config.APP_MODE);
    if (refusal) throw AppError.badRequest(`url ${refusal}`);
    const em = deps.orm.em;
    const partner = await em.findOne(Partner, { partnerId: partnerId! });
    if (!partner) throw AppError.notFound('partner not found');
    partner.webhookUrl = body.url;
    if (!partner.webhookSecret || body.rotateSecret) partner.webhookSecret = newWebhookSecret();
    await em.flush();
    return { url: partner.webhookUrl, secret: partner.webhookSecret };
  });
}
