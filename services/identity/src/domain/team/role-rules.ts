import type { team } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { MemberRecord } from './members.ts';

/**
 * What a member may do to another's role: only an owner makes or unmakes an owner (an admin holds
 * every permission but cannot demote or remove an owner, nor make one), and a partner always keeps
 * at least one owner. `to` undefined: the member is removed.
 */
export function checkRoleChange(
  members: readonly MemberRecord[],
  caller: MemberRecord,
  target: MemberRecord,
  to: team.MemberRole | undefined,
): void {
  const touchesOwner = target.role === 'owner' || to === 'owner';
  if (touchesOwner && caller.role !== 'owner') {
    throw AppError.forbidden(
      to === undefined
        ? 'only an owner can remove an owner'
        : target.role === 'owner'
          ? "only an owner can change an owner's role"
          : 'only an owner can make a member an owner',
    );
  }
  const owners = members.filter((m) => m.role === 'owner').length;
  if (target.role === 'owner' && to !== 'owner' && owners <= 1) {
    throw AppError.unprocessable(
      'LAST_OWNER',
      to === undefined
        ? 'the last owner cannot leave or be removed: make another member an owner first'
        : 'the last owner cannot be demoted: make another member an owner first',
    );
  }
}
