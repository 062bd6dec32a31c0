import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { revokeAllApiKeys } from '../domain/security/api-keys.ts';
import { revokePartnerSessions } from '../domain/security/refresh-tokens.ts';

/**
 * Ends every session of every member (their refresh tokens) and, when asked, revokes every API key;
 * the gateway then writes the partner's cutoffs so access tokens issued before are refused at once.
 */
export function signOutEverywhereHandler(deps: IdentityDeps) {
  return handle(identity.signOutEverywhere, async ({ partnerId, body, actor, clientIp }) =>
    deps.db.em.transactional(async (tx) => {
      const sessionsRevoked = await revokePartnerSessions(tx, partnerId);
      const apiKeysRevoked = body.revokeApiKeys ? await revokeAllApiKeys(tx, partnerId) : 0;
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.signOutEverywhere.name,
        summary: body.revokeApiKeys
          ? 'signed every member out and revoked every API key'
          : 'signed every member out',
        details: { sessionsRevoked, apiKeysRevoked, revokeApiKeys: body.revokeApiKeys },
      });
      return { sessionsRevoked, apiKeysRevoked };
    }),
  );
}
