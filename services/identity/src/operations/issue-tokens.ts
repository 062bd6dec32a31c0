import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@coin/db';
import type { IdentityDeps } from '../deps.ts';
import { issueRefreshToken } from '../domain/security/refresh-tokens.ts';

/**
 * `authTime`: when the password was entered (epoch seconds), given at login; a token without it
 * cannot call step-up operations.
 */
export async function issueTokens(
  deps: IdentityDeps,
  em: EntityManager,
  partnerId: string,
  familyId: string = randomUUID(),
  authTime?: number,
) {
  return {
    accessToken: await deps.signer.sign(em, partnerId, deps.config.ACCESS_TOKEN_TTL_SECONDS, authTime),
    refreshToken: await issueRefreshToken(em, partnerId, familyId, deps.config.REFRESH_TOKEN_TTL_SECONDS),
  };
}
