import { randomUUID } from 'node:crypto';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { randomToken, sha256 } from './secrets.ts';

export interface TokenFamily {
  partnerId: string;
  familyId: string;
  /** Null for a token issued before teams: the partner's owner. */
  memberId: string | null;
  /** When the login's password was entered (epoch seconds); null for tokens issued before it was kept. */
  authTime: number | null;
}

/** Issues a refresh token in a family (a new family at login, the same one on rotation). */
export async function issueRefreshToken(
  em: EntityManager,
  partnerId: string,
  familyId: string,
  ttlSeconds: number,
  memberId: string,
  authTime?: number,
): Promise<string> {
  const token = randomToken(32);
  await boundQuery(
    em,
    `INSERT INTO refresh_tokens (id, partner_id, family_id, token_hash, expires_at, member_id, auth_time)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6, to_timestamp($7))`,
    [randomUUID(), partnerId, familyId, sha256(token), ttlSeconds, memberId, authTime ?? null],
  );
  return token;
}

/**
 * Spends a live refresh token by a conditional update, so two concurrent uses cannot both succeed.
 * Returns its family, or undefined when it is unknown, spent, revoked or expired.
 */
export async function spendRefreshToken(
  em: EntityManager,
  tokenHash: string,
): Promise<TokenFamily | undefined> {
  return boundRow<TokenFamily>(
    em,
    `UPDATE refresh_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
      RETURNING partner_id AS "partnerId", family_id AS "familyId", member_id AS "memberId",
                extract(epoch FROM auth_time)::bigint AS "authTime"`,
    [tokenHash],
  );
}

/** Revokes the family of a token that was already spent (it leaked); returns it when there was one. */
export async function revokeFamilyOfSpent(
  em: EntityManager,
  tokenHash: string,
): Promise<TokenFamily | undefined> {
  return boundRow<TokenFamily>(
    em,
    `UPDATE refresh_tokens SET revoked_at = now()
      WHERE revoked_at IS NULL
        AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL)
      RETURNING partner_id AS "partnerId", family_id AS "familyId", member_id AS "memberId"`,
    [tokenHash],
  );
}

/**
 * Revokes the family of the partner's token with this hash, or, without one, every token of the
 * member (`memberId`), or of the whole partner for a session from before teams (which names none).
 */
export async function revokeRefreshTokens(
  em: EntityManager,
  partnerId: string,
  tokenHash: string | undefined,
  memberId?: string | null,
): Promise<void> {
  if (tokenHash) {
    await boundQuery(
      em,
      `UPDATE refresh_tokens SET revoked_at = now()
        WHERE revoked_at IS NULL AND partner_id = $1
          AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $2)`,
      [partnerId, tokenHash],
    );
  } else {
    await boundQuery(
      em,
      `UPDATE refresh_tokens SET revoked_at = now()
        WHERE partner_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR member_id = $2)`,
      [partnerId, memberId ?? null],
    );
  }
}

/** Revokes every live refresh token of every member of the partner; returns how many. */
export async function revokePartnerSessions(em: EntityManager, partnerId: string): Promise<number> {
  const row = await boundRow<{ n: number }>(
    em,
    `WITH revoked AS (UPDATE refresh_tokens SET revoked_at = now()
                       WHERE partner_id = $1 AND revoked_at IS NULL AND expires_at > now() RETURNING 1)
     SELECT count(*)::int AS n FROM revoked`,
    [partnerId],
  );
  return row?.n ?? 0;
}
