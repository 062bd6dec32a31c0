import { boundQuery, type EntityManager } from '@coin/db';

/**
 * Failed logins counted per e-mail in a window of `lockSeconds` that starts at the first failure.
 * Returns the failures in the current window and the seconds left in it, or undefined when none.
 */
export async function loginFailures(
  em: EntityManager,
  email: string,
  lockSeconds: number,
): Promise<{ failures: number; lockedFor: number } | undefined> {
  const [row] = await boundQuery<{ failures: number; lockedFor: number }>(
    em,
    `SELECT failures,
            ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS "lockedFor"
       FROM login_failures WHERE email = $1`,
    [email, lockSeconds],
  );
  return row;
}

/** Counts one more failure, in a new window when the previous one has ended. */
export async function recordLoginFailure(
  em: EntityManager,
  email: string,
  lockSeconds: number,
): Promise<void> {
  await boundQuery(
    em,
    `INSERT INTO login_failures (email, failures, window_started_at) VALUES ($1, 1, now())
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN login_failures.window_started_at < now() - make_interval(secs => $2)
                       THEN 1 ELSE login_failures.failures + 1 END,
       window_started_at = CASE WHEN login_failures.window_started_at < now() - make_interval(secs => $2)
                                THEN now() ELSE login_failures.window_started_at END`,
    [email, lockSeconds],
  );
}

export async function clearLoginFailures(em: EntityManager, email: string): Promise<void> {
  await boundQuery(em, 'DELETE FROM login_failures WHERE email = $1', [email]);
}
