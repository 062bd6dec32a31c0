import { handle } from '@coin/bus';
import { type Actor, team } from '@coin/contracts';
import type { EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { enqueueMail } from '../domain/mail/mail-outbox.ts';
import { findPartner } from '../domain/partners/partner-store.ts';
import { createInvite, listOpenInvites, revokeInvite } from '../domain/team/invites.ts';
import { inviteView, memberView } from '../domain/team/member-view.ts';
import {
  deleteMember,
  findMemberByEmail,
  findSessionMember,
  listMembers,
  lockMembers,
  type MemberRecord,
  setMemberRole,
} from '../domain/team/members.ts';
import { checkRoleChange } from '../domain/team/role-rules.ts';

/**
 * The member making the request, as the gateway names them; a session from before teams names
 * none and is the partner's owner. An API key is no member.
 */
async function callerOf(em: EntityManager, partnerId: string, actor: Actor | undefined) {
  const member =
    actor && !actor.apiKeyId ? await findSessionMember(em, partnerId, actor.memberId) : undefined;
  if (!member) throw AppError.forbidden("this operation needs a team member's session");
  return member;
}

function listMembersHandler(deps: IdentityDeps) {
  return handle(team.listMembers, async ({ partnerId }) => ({
    data: (await listMembers(deps.db.em, partnerId)).map(memberView),
  }));
}

function getCurrentMemberHandler(deps: IdentityDeps) {
  return handle(team.getCurrentMember, async ({ partnerId, actor }) => {
    const member = actor?.memberId
      ? await findSessionMember(deps.db.em, partnerId, actor.memberId)
      : undefined;
    if (!member) throw AppError.notFound('this credential is an API key, not a member');
    return memberView(member);
  });
}

function inviteMemberHandler(deps: IdentityDeps) {
  return handle(team.inviteMember, async ({ partnerId, body, actor, clientIp }) => {
    const em = deps.db.em;
    const caller = await callerOf(em, partnerId, actor);
    if (body.role === 'owner' && caller.role !== 'owner')
      throw AppError.forbidden('only an owner can make a member an owner');
    const email = body.email.toLowerCase();
    if (await findMemberByEmail(em, email))
      throw AppError.conflict('a member with this email already exists');
    const partner = await findPartner(em, partnerId);
    return em.transactional(async (tx) => {
      const { invite, token } = await createInvite(tx, {
        partnerId,
        email,
        role: body.role,
        invitedBy: caller.id,
        ttlHours: team.INVITE_TTL_HOURS,
      });
      const acceptUrl = `${deps.config.DASHBOARD_URL}/accept-invite#token=${token}`;
      await enqueueMail(tx, {
        to: email,
        subject: `You are invited to ${partner?.partnerName ?? 'a team'} on Coin Rewards`,
        text: `${caller.email} invited you to join ${partner?.partnerName ?? 'their team'} as ${body.role}.\n\nChoose your password here (the link works once, for ${team.INVITE_TTL_HOURS} hours):\n${acceptUrl}\n`,
        discardAfter: new Date(invite.expiresAt),
      });
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: team.inviteMember.name,
        summary: `invited ${email} as ${body.role}`,
        details: { inviteId: invite.id, email, role: body.role },
      });
      return { ...inviteView(invite), acceptUrl };
    });
  });
}

function listInvitesHandler(deps: IdentityDeps) {
  return handle(team.listInvites, async ({ partnerId }) => ({
    data: (await listOpenInvites(deps.db.em, partnerId)).map(inviteView),
  }));
}

function revokeInviteHandler(deps: IdentityDeps) {
  return handle(team.revokeInvite, async ({ partnerId, params, actor, clientIp }) =>
    deps.db.em.transactional(async (tx) => {
      const invite = await revokeInvite(tx, partnerId, params.id);
      if (!invite) throw AppError.notFound('no open invitation of yours has this id');
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: team.revokeInvite.name,
        summary: `revoked the invitation of ${invite.email}`,
        details: { inviteId: invite.id, email: invite.email, role: invite.role },
      });
      return {};
    }),
  );
}

/** Role changes and removals are decided with the partner's members locked (domain/team/members.ts). */
async function withMembers<T>(
  deps: IdentityDeps,
  partnerId: string,
  actor: Actor | undefined,
  targetId: string,
  fn: (tx: EntityManager, members: MemberRecord[], caller: MemberRecord, target: MemberRecord) => Promise<T>,
): Promise<T> {
  return deps.db.em.transactional(async (tx) => {
    const members = await lockMembers(tx, partnerId);
    const { id } = await callerOf(tx, partnerId, actor);
    const caller = members.find((m) => m.id === id)!;
    const target = members.find((m) => m.id === targetId);
    if (!target) throw AppError.notFound('no member of your team has this id');
    return fn(tx, members, caller, target);
  });
}

function updateMemberRoleHandler(deps: IdentityDeps) {
  return handle(team.updateMemberRole, async ({ partnerId, params, body, actor, clientIp }) =>
    withMembers(deps, partnerId, actor, params.id, async (tx, members, caller, target) => {
      if (target.role === body.role) return memberView(target);
      checkRoleChange(members, caller, target, body.role);
      const updated = await setMemberRole(tx, target.id, body.role);
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: team.updateMemberRole.name,
        summary: `changed ${target.email}'s role from ${target.role} to ${body.role}`,
        details: { memberId: target.id, email: target.email, from: target.role, to: body.role },
      });
      return memberView(updated);
    }),
  );
}

function removeMemberHandler(deps: IdentityDeps) {
  return handle(team.removeMember, async ({ partnerId, params, actor, clientIp }) =>
    withMembers(deps, partnerId, actor, params.id, async (tx, members, caller, target) => {
      checkRoleChange(members, caller, target, undefined);
      await deleteMember(tx, target.id);
      const left = caller.id === target.id;
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: team.removeMember.name,
        summary: left ? `${target.email} left the team` : `removed ${target.email} (${target.role})`,
        details: { memberId: target.id, email: target.email, role: target.role },
      });
      return {};
    }),
  );
}

/** Members, invitations and roles (the gateway lets only the `team` permission call these). */
export function teamHandlers(deps: IdentityDeps) {
  return [
    listMembersHandler(deps),
    getCurrentMemberHandler(deps),
    inviteMemberHandler(deps),
    listInvitesHandler(deps),
    revokeInviteHandler(deps),
    updateMemberRoleHandler(deps),
    removeMemberHandler(deps),
  ];
}
