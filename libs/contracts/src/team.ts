import { z } from 'zod';
import { actorSchema } from './actor.ts';
import { email, guid, isoTimestamp, MAX_PAGE_SIZE, password, passwordConfirmation } from './common.ts';
import { type Operation, operationsOf } from './operation.ts';
import { ROLES } from './permissions.ts';
import { text } from './text.ts';

const { http } = operationsOf('identity');

/** A member's role; what each may do is ROLE_PERMISSIONS. */
export const memberRole = z.enum(ROLES);
export type MemberRole = z.infer<typeof memberRole>;

/** How long an invitation link works. */
export const INVITE_TTL_HOURS = 72;

const memberSchema = z
  .object({
    id: guid,
    email: z.string(),
    role: memberRole,
    createdAt: isoTimestamp,
  })
  .meta({ id: 'Member', description: 'A member of your team, with their own login.' });

const inviteSchema = z
  .object({
    id: guid,
    email: z.string(),
    role: memberRole,
    /** The member who invited. */
    invitedBy: guid.nullable(),
    createdAt: isoTimestamp,
    expiresAt: isoTimestamp,
  })
  .meta({ id: 'Invite', description: 'An invitation not yet accepted, revoked or expired.' });

export const listMembers = http('listMembers', 'GET /api/v1/ufel/partners/members', {
  permission: 'team',
  message: 'members returned',
  summary: 'Your team: every member and their role',
  schemas: { response: z.object({ data: z.array(memberSchema) }) },
});

export const getCurrentMember = http('getCurrentMember', 'GET /api/v1/ufel/partners/members/me', {
  permission: 'read',
  message: 'member returned',
  summary: 'The member you are signed in as, and their role',
  schemas: { response: memberSchema },
});

export const inviteMember = http('inviteMember', 'POST /api/v1/ufel/partners/invites', {
  permission: 'team',
  stepUp: true,
  message: 'member invited',
  statusCode: 201,
  summary: 'Invite someone by e-mail to join your team with a role (a single-use link)',
  schemas: {
    body: z.strictObject({ email, role: memberRole }),
    response: inviteSchema.extend({ acceptUrl: z.string() }).meta({
      id: 'NewInvite',
      description: 'An invitation, with its single-use link: e-mailed, and shown this once.',
    }),
  },
});

export const listInvites = http('listInvites', 'GET /api/v1/ufel/partners/invites', {
  permission: 'team',
  message: 'invites returned',
  summary: 'Invitations still open',
  schemas: { response: z.object({ data: z.array(inviteSchema) }) },
});

export const revokeInvite = http('revokeInvite', 'DELETE /api/v1/ufel/partners/invites/:id', {
  permission: 'team',
  message: 'invite revoked',
  summary: 'Revoke an open invitation; its link stops working',
  schemas: { params: z.object({ id: guid }), response: z.object({}) },
});

/** The token of an invitation link: opaque, as e-mailed. */
const inviteToken = text({ max: 200, keepSpaces: true });

export const acceptInvite = http('acceptInvite', 'POST /api/v1/ufel/partners/invites/accept', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'invite accepted',
  summary: 'Accept an invitation: choose a password and become a member (the link works once)',
  schemas: {
    body: z
      .strictObject({ token: inviteToken, password, confirmPassword: passwordConfirmation })
      .refine((b) => b.password === b.confirmPassword, {
        path: ['confirmPassword'],
        error: 'must match password',
      }),
    response: memberSchema.extend({ partnerId: guid }),
  },
});

export const updateMemberRole = http('updateMemberRole', 'PATCH /api/v1/ufel/partners/members/:id', {
  permission: 'team',
  stepUp: true,
  cutoff: 'member',
  message: 'member updated',
  summary: "Change a member's role",
  schemas: {
    params: z.object({ id: guid }),
    body: z.strictObject({ role: memberRole }),
    response: memberSchema,
  },
});

export const removeMember = http('removeMember', 'DELETE /api/v1/ufel/partners/members/:id', {
  permission: 'team',
  stepUp: true,
  cutoff: 'member',
  message: 'member removed',
  summary: 'Remove a member (your own id: leave the team); their sessions end',
  schemas: { params: z.object({ id: guid }), response: z.object({}) },
});

const auditEntrySchema = z
  .object({
    id: guid,
    at: isoTimestamp,
    actor: actorSchema,
    /** The client address the change came from, as the gateway saw it. */
    clientIp: z.string().nullable(),
    /** The operation, e.g. `reverseTransfer`, `updateMemberRole`. */
    action: z.string(),
    /** What changed, in a sentence. */
    summary: z.string(),
    /** What changed, field by field. */
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry', description: 'One change recorded in your audit log.' });

/** An audit log cursor: opaque to partners (the position of the last entry of a page). */
const auditCursor = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, { error: 'must be a nextCursor returned by this endpoint' });

export const listAuditLog = http('listAuditLog', 'GET /api/v1/ufel/partners/audit-log', {
  permission: 'audit',
  message: 'audit log returned',
  summary: 'Every change of credentials, webhook, treasury, rules, tiers, reversals and members',
  schemas: {
    query: z.object({
      /** A member id or an API key id. */
      actor: guid.optional(),
      action: text({ max: 100 }).optional(),
      from: z.iso.datetime({ offset: true }).optional(),
      to: z.iso.datetime({ offset: true }).optional(),
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
      cursor: auditCursor.optional(),
    }),
    response: z
      .object({ data: z.array(auditEntrySchema), nextCursor: z.string().nullable() })
      .meta({ id: 'AuditEntryPage', description: 'A page of audit entries, newest first.' }),
  },
});

export const teamOperations: readonly Operation[] = [
  listMembers,
  getCurrentMember,
  inviteMember,
  listInvites,
  revokeInvite,
  acceptInvite,
  updateMemberRole,
  removeMember,
  listAuditLog,
];

export type ListAuditLogQuery = z.infer<typeof listAuditLog.schemas.query>;
