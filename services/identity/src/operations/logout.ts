import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { revokeRefreshTokens } from '../domain/security/refresh-tokens.ts';
import { sha256 } from '../domain/security/secrets.ts';

/** Revokes the given refresh token's family, or, without one, every refresh token of the member. */
export function logoutHandler(deps: IdentityDeps) {
  return handle(identity.logout, async ({ partnerId, body, actor, clientIp }) => {
    if (body.refreshToken) {
      await revokeRefreshTokens(deps.db.em, partnerId, sha256(body.refreshToken));
      return {};
    }
    // Signing out everywhere ends every session of the member (of the partner, for a session from
    // before teams): a change of credentials, recorded.
    await deps.db.em.transactional(async (tx) => {
      await revokeRefreshTokens(tx, partnerId, undefined, actor?.memberId);
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.logout.name,
        summary: 'signed out everywhere',
        details: {},
      });
    });
    return {};
  });
}
