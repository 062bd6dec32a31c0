import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@coin/db';
import type { IdentityDeps } from '../deps.ts';
import { issueRefreshToken } from '../domain/security/refresh-tokens.ts';
import type { MemberRecord } from '../domain/team/members.ts';

/**
 * A member's session: the access token names the member and role, the refresh token the member.
 * `authTime`: when the password was entered (epoch seconds), given at login and kept by the refresh
 * token's row, so a refreshed token keeps it; a token without it cannot call step-up operations.
 */
export async function issueTokens(
  deps: IdentityDeps,
  em: EntityManager,
  member: MemberRecord,
  familyId: string = randomUUID(),
  authTime?: number,
) {
  const claims = {
    mid: member.id,
    email: member.email,
    role: member.role,
    ...(authTime === undefined ? {} : { auth_time: authTime }),
  };
  return {
    accessToken: await deps.signer.sign(em, member.partnerId, deps.config.ACCESS_TOKEN_TTL_SECONDS, claims),
    refreshToken: await issueRefreshToken(
      em,
      member.partnerId,
      familyId,
      deps.config.REFRESH_TOKEN_TTL_SECONDS,
      member.id,
      authTime,
    ),
  };
}
