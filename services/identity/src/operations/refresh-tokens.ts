import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { revokeFamilyOfSpent, spendRefreshToken } from '../domain/security/refresh-tokens.ts';
import { sha256 } from '../domain/security/secrets.ts';
import { findSessionMember } from '../domain/team/members.ts';
import { issueTokens } from './issue-tokens.ts';

/**
 * Rotation: a refresh token is spent once, and the new pair is issued in the same transaction.
 * Presenting a token that was already spent means it leaked: its whole family is revoked.
 */
export function refreshTokensHandler(deps: IdentityDeps) {
  return handle(identity.refreshTokens, async ({ body }, { log }) => {
    const em = deps.db.em;
    const hash = sha256(body.refreshToken);
    const rotated = await em.transactional(async (tx) => {
      const spent = await spendRefreshToken(tx, hash);
      // The member as they are now: a new role holds from this refresh, a removed member has none.
      const member = spent && (await findSessionMember(tx, spent.partnerId, spent.memberId));
      if (!member) return undefined;
      const authTime = spent.authTime == null ? undefined : Number(spent.authTime);
      return { tokens: await issueTokens(deps, tx, member, spent.familyId, authTime) };
    });
    if (rotated) return rotated;
    // The revocation commits on its own: it must survive the refusal that follows.
    const reused = await revokeFamilyOfSpent(em, hash);
    if (reused) log.warn(reused, 'refresh token reused; family revoked');
    throw AppError.unauthorized('refresh token is invalid, expired or revoked');
  });
}
