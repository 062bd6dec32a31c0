import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { findPartnerByEmail } from '../partners/partner-store.ts';
import { clearLoginFailures, loginFailures, recordLoginFailure } from '../security/login-failures.ts';
import { DUMMY_HASH, verifyPassword } from '../security/passwords.ts';
import { issueTokens } from './issue-tokens.ts';

/**
 * Failed logins are counted per e-mail in a sliding lock window; past the limit the account
 * answers 429 (with Retry-After) until the window ends, whatever the password.
 */
export function loginHandler(deps: IdentityDeps) {
  const { LOGIN_MAX_FAILURES: maxFailures, LOGIN_LOCK_SECONDS: lockSeconds } = deps.config;

  return handle(identity.login, async ({ body }) => {
    const em = deps.orm.em;
    const email = body.email.toLowerCase();
    const state = await loginFailures(em, email, lockSeconds);
    if (state && state.failures >= maxFailures && state.lockedFor > 0) {
      throw AppError.rateLimited('too many failed logins for this account; try again later', state.lockedFor);
    }

    const partner = await findPartnerByEmail(em, email);
    const ok = await verifyPassword(body.password, partner?.passwordHash ?? DUMMY_HASH);
    if (!partner || !ok) {
      await recordLoginFailure(em, email, lockSeconds);
      throw AppError.unauthorized('email or password is incorrect');
    }
    if (state) await clearLoginFailures(em, email);

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
