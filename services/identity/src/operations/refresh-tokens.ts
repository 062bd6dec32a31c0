import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { sha256 } from '../security/secrets.ts';
import { issueTokens } from './issue-tokens.ts';

interface SpentRow {
  partner_id: string;
  family_id: string;
}

/**
 * Rotation: a refresh token is spent by a conditional update, so two concurrent uses cannot both
 * succeed. Presenting a token that was already spent means it leaked: its whole family is revoked.
 */
export function refreshTokensHandler(deps: IdentityDeps) {
  return handle(identity.refreshTokens, async ({ body }, { log }) => {
    const em = deps.orm.em;
    const hash = sha256(body.refreshToken);
    const rotated = await em.transactional(async (tx) => {
      const [spent] = await tx.execute<SpentRow[]>(
        `UPDATE refresh_tokens SET used_at = now()
          WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          RETURNING partner_id, family_id`,
        [hash],
      );
      return spent ? { tokens: await issueTokens(deps, tx, spent.partner_id, spent.family_id) } : undefined;
    });
    if (rotated) return rotated;
    // The revocation commits on its own: it must survive the refusal that follows.
    const [reused] = await em.execute<SpentRow[]>(
      `UPDATE refresh_tokens SET revoked_at = now()
        WHERE revoked_at IS NULL
          AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ? AND used_at IS NOT NULL)
        RETURNING partner_id, family_id`,
      [hash],
    );
    if (reused)
      log.warn(
        { partnerId: reused.partner_id, familyId: reused.family_id },
        'refresh token reused; family revoked',
      );
    throw AppError.unauthorized('refresh token is invalid, expired or revoked');
  });
}
