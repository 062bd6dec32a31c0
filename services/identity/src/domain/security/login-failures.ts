import { boundQuery, boundRow, type EntityManager } from '@coin/db';

/** Lock windows double at most this many times: 900 s grows to at most 900 × 2^6 s (16 h). */
const MAX_LOCK_LEVEL = 6;

export interface LoginThrottle {
  maxAttempts: number;
  lockSeconds: number;
}

/**
 * Counts one login attempt for an e-mail before its password is checked, in one conditional
 * upsert: the row lock serialises concurrent attempts, so at most `maxAttempts` are admitted per
 * window however many arrive at once. A window lasts lockSeconds × 2^lock_level from its first
 * attempt; a window that ended full raises the level for the next one, any other resets it.
 * Returns undefined when the attempt is admitted, or the seconds until the next one would be.
 */
export async function admitLoginAttempt(
  em: EntityManager,
  email: string,
  { maxAttempts, lockSeconds }: LoginThrottle,
): Promise<number | undefined> {
  const ended = `login_failures.window_started_at
                 + make_interval(secs => $2 * power(2, login_failures.lock_level)) <= now()`;
  const admitted = await boundQuery<{ email: string }>(
    em,
    `INSERT INTO login_failures (email, failures, window_started_at, lock_level) VALUES ($1, 1, now(), 0)
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN ${ended} THEN 1 ELSE login_failures.failures + 1 END,
       lock_level = CASE WHEN NOT (${ended}) THEN login_failures.lock_level
                         WHEN login_failures.failures >= $3 THEN least(login_failures.lock_level + 1, $4)
                         ELSE 0 END,
       window_started_at = CASE WHEN ${ended} THEN now() ELSE login_failures.window_started_at END
     WHERE ${ended} OR login_failures.failures < $3
     RETURNING email`,
    [email, lockSeconds, maxAttempts, MAX_LOCK_LEVEL],
  );
  if (admitted.length > 0) return undefined;
  const row = await boundRow<{ retryAfter: number }>(
    em,
    `SELECT greatest(1, ceil(extract(epoch FROM window_started_at
              + make_interval(secs => $2 * power(2, lock_level)) - now())))::int AS "retryAfter"
       FROM login_failures WHERE email = $1`,
    [email, lockSeconds],
  );
  return row?.retryAfter ?? 1;
}

/** A correct password ends the e-mail's window: its owner starts afresh. */
export async function clearLoginFailures(em: EntityManager, email: string): Promise<void> {
  await boundQuery(em, 'DELETE FROM login_failures WHERE email = $1', [email]);
}
