import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@coin/db';
import type { IdentityDeps } from '../deps.ts';
import { issueRefreshToken } from '../domain/security/refresh-tokens.ts';

export async function issueTokens(
  deps: IdentityDeps,
  em: EntityManager,
  partnerId: string,
  familyId: string = randomUUID(),
) {
  return {
    accessToken: await deps.signer.sign(em, partnerId, deps.config.ACCESS_TOKEN_TTL_SECONDS),
    refreshToken: await issueRefreshToken(em, partnerId, familyId, deps.config.REFRESH_TOKEN_TTL_SECONDS),
  };
}
