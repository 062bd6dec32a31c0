import { broadcast, handle } from '@coin/bus';
import { identity, partnerEndpointChanged } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { urlRefusal } from '@coin/outbound';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { setWebhook } from '../domain/partners/partner-store.ts';
import { newWebhookSecret } from '../domain/security/secrets.ts';
import { openWebhookSecret, sealWebhookSecret } from '../domain/security/webhook-secrets.ts';

/**
 * The signing secret is kept across URL changes unless the partner asks for a new one; the event
 * kinds are replaced (none named: every kind).
 */
export function setWebhookHandler(deps: IdentityDeps) {
  return handle(identity.setWebhook, async ({ partnerId, body, actor, clientIp }) => {
    const refusal = urlRefusal(body.url, deps.config.APP_MODE);
    if (refusal) throw AppError.badRequest(`url ${refusal}`);
    const target = { url: body.url, events: body.events ?? null };
    const sealed = sealWebhookSecret(deps.kek, partnerId, newWebhookSecret());
    const set = await deps.db.em.transactional(async (tx) => {
      const done = await setWebhook(tx, partnerId, target, sealed, body.rotateSecret);
      if (!done) throw AppError.notFound('partner not found');
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.setWebhook.name,
        summary: `set the webhook to ${body.url}${body.rotateSecret ? ' and rotated its signing secret' : ''}`,
        details: { url: body.url, events: body.events ?? 'all', rotateSecret: body.rotateSecret },
      });
      return done;
    });
    // Webhooks replicas drop their cached URL, secret and kinds: the next event and attempt use these.
    broadcast(deps.nc, partnerEndpointChanged.subject, partnerEndpointChanged.schema, { partnerId });
    return { ...set, secret: openWebhookSecret(deps.kek, partnerId, set.secret)! };
  });
}
