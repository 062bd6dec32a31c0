import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { findPartnerByEmail } from '../domain/partners/partner-store.ts';
import { admitLoginAttempt, clearLoginFailures } from '../domain/security/login-failures.ts';
import { DUMMY_HASH, verifyPassword } from '../domain/security/passwords.ts';
import { issueTokens } from './issue-tokens.ts';

/**
 * Every attempt is counted per e-mail before its password is checked (admitLoginAttempt), so at
 * most LOGIN_MAX_FAILURES guesses are evaluated per window however many arrive at once; past it
 * the account answers 429 with Retry-After, whatever the password, and each window that ends full
 * doubles the next. A correct password clears the count.
 */
export function loginHandler(deps: IdentityDeps) {
  const throttle = {
    maxAttempts: deps.config.LOGIN_MAX_FAILURES,
    lockSeconds: deps.config.LOGIN_LOCK_SECONDS,
  };

  return handle(identity.login, async ({ body }) => {
    const em = deps.db.em;
    const email = body.email.toLowerCase();
    const retryAfter = await admitLoginAttempt(em, email, throttle);
    if (retryAfter !== undefined) {
      throw AppError.rateLimited('too many failed logins for this account; try again later', retryAfter);
    }

    const partner = await findPartnerByEmail(em, email);
    const ok = await verifyPassword(body.password, partner?.passwordHash ?? DUMMY_HASH);
    if (!partner || !ok) throw AppError.unauthorized('email or password is incorrect');
    await clearLoginFailures(em, email);

    const tokens = await issueTokens(deps, em, partner.partnerId);
    return {
      tokens,
      user: {
        id: partner.id,
        email: partner.email,
        name: partner.partnerName,
        userUrl: partner.userDetailsUrl,
        createdAt: isoTime(partner.createdAt),
        clientId: partner.clientId,
      },
    };
  });
}
