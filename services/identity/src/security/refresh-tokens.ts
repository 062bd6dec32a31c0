import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@coin/db';
import { RefreshToken } from '../entities.ts';
import { randomToken, sha256 } from './secrets.ts';

/** Issues a refresh token in a family (a new family at login, the same one on rotation). */
export async function issueRefreshToken(
  em: EntityManager,
  partnerId: string,
  familyId: string,
  ttlSeconds: number,
): Promise<string> {
  const token = randomToken(32);
  await em.insert(RefreshToken, {
    id: randomUUID(),
    partnerId,
    familyId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    createdAt: new Date(),
  });
  return token;
}
