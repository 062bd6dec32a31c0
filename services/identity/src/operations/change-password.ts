import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { hashPassword, verifyPassword } from '../domain/security/passwords.ts';
import { revokeRefreshTokens } from '../domain/security/refresh-tokens.ts';
import { findSessionMember, setMemberPassword } from '../domain/team/members.ts';
import { issueTokens } from './issue-tokens.ts';

/**
 * The signed-in member's new password: every refresh token of the member is revoked and the caller
 * gets a new session; the gateway then refuses the member's access tokens issued before the call.
 */
export function changePasswordHandler(deps: IdentityDeps) {
  return handle(identity.changePassword, async ({ partnerId, body, actor, clientIp }) => {
    if (!actor || actor.apiKeyId) throw AppError.forbidden('only a login session can change its password');
    const member = await findSessionMember(deps.db.em, partnerId, actor.memberId);
    if (!member) throw AppError.unauthorized('the member no longer exists');
    if (!(await verifyPassword(body.currentPassword, member.passwordHash)))
      throw AppError.unprocessable('INVALID_PASSWORD', 'currentPassword is not the present password');
    const passwordHash = await hashPassword(body.newPassword);
    return deps.db.em.transactional(async (tx) => {
      await setMemberPassword(tx, member, passwordHash);
      await revokeRefreshTokens(tx, partnerId, undefined, member.id);
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.changePassword.name,
        summary: `changed the password of ${member.email}; its other sessions ended`,
        details: { memberId: member.id },
      });
      return { tokens: await issueTokens(deps, tx, member, undefined, Math.floor(Date.now() / 1000)) };
    });
  });
}
