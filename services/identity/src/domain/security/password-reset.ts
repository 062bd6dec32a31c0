import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { randomToken, sha256 } from './secrets.ts';

const LINK_LIFETIME = '1 hour';
const ONE_LINK_PER = '1 minute';

/**
 * A new single-use reset token for the member, stored hashed; undefined when one was made less than
 * a minute ago (a request cannot be used to flood a mailbox).
 */
export async function newResetToken(em: EntityManager, memberId: string): Promise<string | undefined> {
  const recent = await boundRow<{ n: number }>(
    em,
    `SELECT count(*)::int AS n FROM password_reset_tokens
      WHERE member_id = $1 AND created_at > now() - interval '${ONE_LINK_PER}'`,
    [memberId],
  );
  if ((recent?.n ?? 0) > 0) return undefined;
  const token = randomToken();
  await boundQuery(
    em,
    `INSERT INTO password_reset_tokens (token_hash, member_id, expires_at) VALUES ($1, $2, now() + interval '${LINK_LIFETIME}')`,
    [sha256(token), memberId],
  );
  return token;
}

/** Spends a token by a conditional update (single use); its member, or undefined when unknown, used or expired. */
export async function spendResetToken(em: EntityManager, token: string): Promise<string | undefined> {
  const row = await boundRow<{ memberId: string }>(
    em,
    `UPDATE password_reset_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING member_id AS "memberId"`,
    [sha256(token)],
  );
  return row?.memberId;
}
