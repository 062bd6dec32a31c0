import { broadcast, handle } from '@coin/bus';
import { identity, partnerEndpointChanged } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { urlRefusal } from '@coin/outbound';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { replaceWebhookSecret, setWebhook } from '../domain/partners/partner-store.ts';
import { newWebhookSecret } from '../domain/security/secrets.ts';
import { openWebhookSecret, sealWebhookSecret } from '../domain/security/webhook-secrets.ts';

/**
 * The signing secret is kept across URL changes and shown only by the call that creates it (the
 * first URL set); rotating it is rotateWebhookSecret. The event kinds are replaced (none named:
 * every kind).
 */
export function setWebhookHandler(deps: IdentityDeps) {
  return handle(identity.setWebhook, async ({ partnerId, body, actor, clientIp }) => {
    const refusal = urlRefusal(body.url, deps.config.APP_MODE);
    if (refusal) throw AppError.badRequest(`url ${refusal}`);
    const target = { url: body.url, events: body.events ?? null };
    const sealed = sealWebhookSecret(deps.kek, partnerId, newWebhookSecret());
    const set = await deps.db.em.transactional(async (tx) => {
      const done = await setWebhook(tx, partnerId, target, sealed, false);
      if (!done) throw AppError.notFound('partner not found');
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.setWebhook.name,
        summary: `set the webhook to ${body.url}`,
        details: { url: body.url, events: body.events ?? 'all' },
      });
      return done;
    });
    // Webhooks replicas drop their cached URL, secret and kinds: the next event and attempt use these.
    broadcast(deps.nc, partnerEndpointChanged.subject, partnerEndpointChanged.schema, { partnerId });
    const { secret, ...settings } = set;
    // The stored secret is the one sealed above only when this call created it.
    return secret === sealed
      ? { ...settings, secret: openWebhookSecret(deps.kek, partnerId, secret)! }
      : settings;
  });
}

/** A new signing secret, shown in this answer only; deliveries are signed with it from now on. */
export function rotateWebhookSecretHandler(deps: IdentityDeps) {
  return handle(identity.rotateWebhookSecret, async ({ partnerId, actor, clientIp }) => {
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret(deps.kek, partnerId, secret);
    await deps.db.em.transactional(async (tx) => {
      if (!(await replaceWebhookSecret(tx, partnerId, sealed))) throw AppError.notFound('partner not found');
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.rotateWebhookSecret.name,
        summary: 'rotated the webhook signing secret',
        details: {},
      });
    });
    broadcast(deps.nc, partnerEndpointChanged.subject, partnerEndpointChanged.schema, { partnerId });
    return { secret };
  });
}
