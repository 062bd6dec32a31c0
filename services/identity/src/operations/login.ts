import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { Partner } from '../entities.ts';
import { DUMMY_HASH, verifyPassword } from '../security/passwords.ts';
import { issueTokens } from './issue-tokens.ts';

interface FailureRow {
  failures: number;
  locked_for: number;
}

/**
 * Failed logins are counted per e-mail in a sliding lock window; past the limit the account
 * answers 429 (with Retry-After) until the window ends, whatever the password.
 */
export function loginHandler(deps: IdentityDeps) {
  const { LOGIN_MAX_FAILURES: maxFailures, LOGIN_LOCK_SECONDS: lockSeconds } = deps.config;

  return handle(identity.login, async ({ body }) => {
    const em = deps.orm.em;
    const email = body.email.toLowerCase();
    const [state] = await em.execute<FailureRow[]>(
      `SELECT failures, ceil(extract(epoch FROM window_started_at + make_interval(secs => ?) - now()))::int AS locked_for
         FROM login_failures WHERE email = ?`,
      [lockSeconds, email],
    );
    if (state && state.failures >= maxFailures && state.locked_for > 0) {
      throw AppError.rateLimited(
        'too many failed logins for this account; try again later',
        state.locked_for,
      );
    }

    const partner = await em.findOne(Partner, { email });
    const ok = await verifyPassword(body.password, partner?.passwordHash ?? DUMMY_HASH);
    if (!partner || !ok) {
      await em.execute(
        `INSERT INTO login_failures (email, failures, window_started_at) VALUES (?, 1, now())
         ON CONFLICT (email) DO UPDATE SET
           failures = CASE WHEN login_failures.window_started_at < now() - make_interval(secs => ?)
                           THEN 1 ELSE login_failures.failures + 1 END,
           window_started_at = CASE WHEN login_failures.window_started_at < now() - make_interval(secs => ?)
                                    THEN now() ELSE login_failures.window_started_at END`,
        [email, lockSeconds, lockSeconds],
      );
      throw AppError.unauthorized('email or password is incorrect');
    }
    if (state) await em.execute('DELETE FROM login_failures WHERE email = ?', [email]);

    const tokens = await issueTokens(deps, em, partner.partnerId);
    return {
      tokens,
      user: {
        id: partner.id,
        email: partner.email,
        name: partner.partnerName,
        userUrl: partner.userDetailsUrl,
        createdAt: partner.createdAt.toISOString(),
        clientId: partner.clientId,
      },
    };
  });
}
