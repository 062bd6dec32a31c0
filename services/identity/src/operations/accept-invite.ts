import { handle } from '@coin/bus';
import { team } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { hashPassword } from '../domain/security/passwords.ts';
import { spendInvite } from '../domain/team/invites.ts';
import { memberView } from '../domain/team/member-view.ts';
import { insertMember } from '../domain/team/members.ts';

/**
 * The invitation is spent and the member made in one transaction: a link works once, and a failure
 * (the e-mail became a member meanwhile) leaves it unspent.
 */
export function acceptInviteHandler(deps: IdentityDeps) {
  return handle(team.acceptInvite, async ({ body, clientIp }) => {
    const passwordHash = await hashPassword(body.password);
    return deps.db.em.transactional(async (tx) => {
      const invite = await spendInvite(tx, body.token);
      if (!invite) throw AppError.notFound('the invitation link is invalid, used, revoked or expired');
      const member = await insertMember(tx, {
        partnerId: invite.partnerId,
        email: invite.email,
        passwordHash,
        role: invite.role,
      });
      await recordAudit(tx, {
        partnerId: invite.partnerId,
        actor: { memberId: member.id, email: member.email, apiKeyId: null },
        clientIp,
        action: team.acceptInvite.name,
        summary: `${member.email} joined as ${member.role}`,
        details: { inviteId: invite.id, memberId: member.id, email: member.email, role: member.role },
      });
      return { ...memberView(member), partnerId: invite.partnerId };
    });
  });
}
