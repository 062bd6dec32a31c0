import { boundQuery, boundRow, type EntityManager } from '@coin/db';

/** Lock windows double at most this many times: 900 s grows to at most 900 × 2^6 s (16 h). */
const MAX_LOCK_LEVEL = 6;

export interface LoginThrottle {
  maxAttempts: number;
  lockSeconds: number;
  /** The delay of the first attempt past maxAttempts on one e-mail from all clients; doubles per attempt. */
  delayBaseMs: number;
  delayMaxMs: number;
}

export type LoginAdmission = { retryAfter: number } | { delayMs: number };

/**
 * Counts one login attempt before its password is checked, twice:
 *
 * - per (e-mail, client address): one conditional upsert whose row lock serialises concurrent
 *   attempts, so at most `maxAttempts` are admitted per window however many arrive at once. A
 *   window lasts lockSeconds × 2^lock_level from its first attempt; a window that ended full raises
 *   the level for the next one, any other resets it. Past it this pair is refused (Retry-After): a
 *   stranger locks out only itself.
 * - per e-mail, from every client: never a refusal, only a delay that doubles with each attempt
 *   past `maxAttempts` in the window (up to delayMaxMs), so guesses spread over many addresses
 *   slow down while the owner can still log in.
 */
export async function admitLoginAttempt(
  em: EntityManager,
  email: string,
  client: string,
  throttle: LoginThrottle,
): Promise<LoginAdmission> {
  const { maxAttempts, lockSeconds } = throttle;
  const ended = `login_client_failures.window_started_at
                 + make_interval(secs => $3 * power(2, login_client_failures.lock_level)) <= now()`;
  const admitted = await boundQuery<{ email: string }>(
    em,
    `INSERT INTO login_client_failures (email, client, failures, window_started_at, lock_level)
     VALUES ($1, $2, 1, now(), 0)
     ON CONFLICT (email, client) DO UPDATE SET
       failures = CASE WHEN ${ended} THEN 1 ELSE login_client_failures.failures + 1 END,
       lock_level = CASE WHEN NOT (${ended}) THEN login_client_failures.lock_level
                         WHEN login_client_failures.failures >= $4 THEN least(login_client_failures.lock_level + 1, $5)
                         ELSE 0 END,
       window_started_at = CASE WHEN ${ended} THEN now() ELSE login_client_failures.window_started_at END
     WHERE ${ended} OR login_client_failures.failures < $4
     RETURNING email`,
    [email, client, lockSeconds, maxAttempts, MAX_LOCK_LEVEL],
  );
  if (admitted.length === 0) {
    const row = await boundRow<{ retryAfter: number }>(
      em,
      `SELECT greatest(1, ceil(extract(epoch FROM window_started_at
                + make_interval(secs => $3 * power(2, lock_level)) - now())))::int AS "retryAfter"
         FROM login_client_failures WHERE email = $1 AND client = $2`,
      [email, client, lockSeconds],
    );
    return { retryAfter: row?.retryAfter ?? 1 };
  }
  return { delayMs: await countForEmail(em, email, throttle) };
}

/** The per-e-mail count (login_failures, its lock level unused since): the delay it earns. */
async function countForEmail(
  em: EntityManager,
  email: string,
  { maxAttempts, lockSeconds, delayBaseMs, delayMaxMs }: LoginThrottle,
): Promise<number> {
  const ended = `login_failures.window_started_at + make_interval(secs => $2) <= now()`;
  const row = await boundRow<{ failures: number }>(
    em,
    `INSERT INTO login_failures (email, failures, window_started_at, lock_level) VALUES ($1, 1, now(), 0)
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN ${ended} THEN 1 ELSE login_failures.failures + 1 END,
       lock_level = 0,
       window_started_at = CASE WHEN ${ended} THEN now() ELSE login_failures.window_started_at END
     RETURNING failures`,
    [email, lockSeconds],
  );
  const over = (row?.failures ?? 0) - maxAttempts;
  return over <= 0 ? 0 : Math.min(delayBaseMs * 2 ** Math.min(over - 1, 20), delayMaxMs);
}

/**
 * A correct password ends the e-mail's delay and this client's window; another client's lock stays
 * (else a stranger could guess again after every login of the owner).
 */
export async function clearLoginFailures(em: EntityManager, email: string, client: string): Promise<void> {
  await boundQuery(em, 'DELETE FROM login_failures WHERE email = $1', [email]);
  await boundQuery(em, 'DELETE FROM login_client_failures WHERE email = $1 AND client = $2', [email, client]);
}
