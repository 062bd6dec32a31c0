import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { revokeRefreshTokens } from '../domain/security/refresh-tokens.ts';
import { sha256 } from '../domain/security/secrets.ts';

/** Revokes the given refresh token's family, or, without one, every refresh token of the partner. */
export function logoutHandler(deps: IdentityDeps) {
  return handle(identity.logout, async ({ partnerId, body }) => {
    await revokeRefreshTokens(
      deps.db.em,
      partnerId,
      body.refreshToken ? sha256(body.refreshToken) : undefined,
    );
    return {};
  });
}
