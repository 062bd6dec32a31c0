import { isoTime } from '@coin/db';
import type { InviteRecord } from './invites.ts';
import type { MemberRecord } from './members.ts';

export function memberView(m: MemberRecord) {
  return { id: m.id, email: m.email, role: m.role, createdAt: isoTime(m.createdAt) };
}

export function inviteView(i: InviteRecord) {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    createdAt: isoTime(i.createdAt),
    expiresAt: isoTime(i.expiresAt),
  };
}
