import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { randomToken, sha256 } from './secrets.ts';

const LINK_LIFETIME = '1 hour';
const ONE_LINK_PER = '1 minute';

/**
 * A new single-use unlock token for the e-mail, stored hashed; undefined when one was made less
 * than a minute ago (a request cannot be used to flood a mailbox).
 */
export async function newUnlockToken(em: EntityManager, email: string): Promise<string | undefined> {
  const recent = await boundRow<{ n: number }>(
    em,
    `SELECT count(*)::int AS n FROM login_unlock_tokens
      WHERE email = $1 AND created_at > now() - interval '${ONE_LINK_PER}'`,
    [email],
  );
  if ((recent?.n ?? 0) > 0) return undefined;
  const token = randomToken();
  await boundQuery(
    em,
    `INSERT INTO login_unlock_tokens (token_hash, email, expires_at) VALUES ($1, $2, now() + interval '${LINK_LIFETIME}')`,
    [sha256(token), email],
  );
  return token;
}

/**
 * Spends a token and lifts every login throttle of its e-mail, in one transaction; false when the
 * token is unknown, used or expired.
 */
export async function spendUnlockToken(em: EntityManager, token: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const row = await boundRow<{ email: string }>(
      tx,
      `UPDATE login_unlock_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING email`,
      [sha256(token)],
    );
    if (!row) return false;
    await boundQuery(tx, 'DELETE FROM login_client_failures WHERE email = $1', [row.email]);
    await boundQuery(tx, 'DELETE FROM login_failures WHERE email = $1', [row.email]);
    return true;
  });
}
