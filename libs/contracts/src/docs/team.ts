import { notFound, rateLimited } from './errors.ts';
import { EXAMPLE, type OperationDocs } from './types.ts';

const MEMBER_ID = '3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d';
const INVITE_ID = '9d7b5f3a-1c2e-4f6a-8b0c-4e6f8a0b2c3d';

const member = { id: MEMBER_ID, email: 'sam@demo.example', role: 'finance', createdAt: EXAMPLE.at };
const invite = {
  id: INVITE_ID,
  email: 'sam@demo.example',
  role: 'finance',
  invitedBy: EXAMPLE.partnerId,
  createdAt: EXAMPLE.at,
  expiresAt: '2026-11-26T08:30:00.000Z',
};
const password = 'a member password 123';

const ownerOnly = (what: string) => [
  { code: 'FORBIDDEN', when: `${what} (only an owner may make, demote or remove an owner)` },
];
const lastOwner = (what: string) => [{ code: 'LAST_OWNER', when: `${what} the last owner` }];
const noMember = notFound('no member of your team has this id');

export const teamDocs: Record<string, OperationDocs> = {
  listMembers: {
    description:
      'Your team: every member, each with their own login and a role. The partner’s own e-mail is its first owner.',
    response: {
      data: [{ ...member, id: EXAMPLE.partnerId, email: 'dev@demo.example', role: 'owner' }, member],
    },
  },
  getCurrentMember: {
    description: 'The member whose session calls, with their role. An API key is no member: 404.',
    errors: { 404: notFound('the credential is an API key') },
    response: member,
  },
  inviteMember: {
    description:
      'Invites someone by e-mail with a role. The link (`acceptUrl`) is e-mailed and shown in this answer once; it works once, for 72 hours, and a new invitation of the same e-mail replaces it. Only an owner may invite an owner.',
    errors: {
      403: ownerOnly('inviting an owner as an admin'),
      409: [{ code: 'DUPLICATE', when: 'the e-mail already belongs to a member' }],
    },
    request: { email: 'sam@demo.example', role: 'finance' },
    response: { ...invite, acceptUrl: 'https://dashboard.example/dashboard/accept-invite#token=Qm9v…' },
  },
  listInvites: {
    description: 'Invitations not yet accepted, revoked or expired, newest first.',
    response: { data: [invite] },
  },
  revokeInvite: {
    description: 'Revokes an open invitation: its link stops working.',
    errors: { 404: notFound('no open invitation of yours has this id') },
    response: {},
  },
  acceptInvite: {
    description:
      'Accepts an invitation with the token of its link and the new member’s password; the member then logs in with `POST /partners/login` like any partner. A link works once. Limited per client address.',
    errors: {
      404: notFound('the link is unknown, used, revoked or expired'),
      409: [{ code: 'DUPLICATE', when: 'the e-mail became a member meanwhile' }],
      429: rateLimited('too many calls from this address'),
    },
    request: { token: 'Qm9v…', password, confirmPassword: password },
    response: { ...member, partnerId: EXAMPLE.partnerId },
  },
  updateMemberRole: {
    description:
      'Changes a member’s role. It holds from the member’s next login or token refresh (an access token lasts 15 minutes).',
    errors: {
      403: ownerOnly("changing an owner's role, or making an owner, as an admin"),
      404: noMember,
      422: lastOwner('demoting'),
    },
    request: { role: 'support' },
    response: { ...member, role: 'support' },
  },
  removeMember: {
    description:
      'Removes a member and ends their sessions (refresh tokens; an access token lasts its 15 minutes). Your own id: leave the team.',
    errors: {
      403: ownerOnly('removing an owner as an admin'),
      404: noMember,
      422: lastOwner('removing, or leaving as,'),
    },
    response: {},
  },
  listAuditLog: {
    description:
      'Every change of credentials, webhook, treasury, rules, tiers, reversals and members: who (`actor`: a member, or an API key), when, from which address, the operation (`action`) and what changed. Newest first; filter by `actor` (a member or API key id), `action` (an operation name), `from` and `to` (ISO times, `to` excluded). Pass `nextCursor` as `cursor` for the next page. The log is append-only. Changes made by the wallet, rules and onboarding services arrive within moments of their answer.',
    query: { action: 'reverseTransfer', limit: 50 },
    response: {
      data: [
        {
          id: EXAMPLE.eventId,
          at: EXAMPLE.at,
          actor: { memberId: MEMBER_ID, email: 'sam@demo.example', apiKeyId: null },
          clientIp: '203.0.113.7',
          action: 'reverseTransfer',
          summary: 'reversed 30.00 coins (partner_user_transfer) of user 0b8f5e1c-…: sent to the wrong user',
          details: {
            ledgerEntryId: EXAMPLE.entryId,
            userId: EXAMPLE.userId,
            coins: '30.00',
            reason: 'sent to the wrong user',
          },
        },
      ],
      nextCursor: null,
    },
  },
};
