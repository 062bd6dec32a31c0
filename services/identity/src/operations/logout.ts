import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { sha256 } from '../security/secrets.ts';

/** Revokes the given refresh token's family, or, without one, every refresh token of the partner. */
export function logoutHandler(deps: IdentityDeps) {
  return handle(identity.logout, async ({ partnerId, body }) => {
    const em = deps.orm.em;
    if (body.refreshToken) {
      await em.execute(
        `UPDATE refresh_tokens SET revoked_at = now()
          WHERE revoked_at IS NULL AND partner_id = ?
            AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ?)`,
        [partnerId, sha256(body.refreshToken)],
      );
    } else {
      await em.execute(
        'UPDATE refresh_tokens SET revoked_at = now() WHERE partner_id = ? AND revoked_at IS NULL',
        [partnerId],
      );
    }
    return {};
  });
}
