import { setTimeout } from 'node:timers/promises';
import { handle } from '@coin/bus';
import { clientKey, identity } from '@coin/contracts';
import { isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { findPartner } from '../domain/partners/partner-store.ts';
import { admitLoginAttempt, clearLoginFailures } from '../domain/security/login-failures.ts';
import { DUMMY_HASH, verifyPassword } from '../domain/security/passwords.ts';
import { findMemberByEmail } from '../domain/team/members.ts';
import { issueTokens } from './issue-tokens.ts';

/**
 * Every attempt is counted before its password is checked (admitLoginAttempt): per (e-mail, client
 * address), at most LOGIN_MAX_FAILURES guesses per window, past which that pair alone answers 429
 * with Retry-After, whatever the password, each full window doubling the next; per e-mail, from
 * every client, only a growing delay. A correct password clears its pair and the delay.
 */
export function loginHandler(deps: IdentityDeps) {
  const throttle = {
    maxAttempts: deps.config.LOGIN_MAX_FAILURES,
    lockSeconds: deps.config.LOGIN_LOCK_SECONDS,
    delayBaseMs: deps.config.LOGIN_DELAY_BASE_MS,
    delayMaxMs: deps.config.LOGIN_DELAY_MAX_MS,
  };

  return handle(identity.login, async ({ body, clientIp }) => {
    const em = deps.db.em;
    const email = body.email.toLowerCase();
    const client = clientIp === undefined ? 'unknown' : clientKey(clientIp);
    const admission = await admitLoginAttempt(em, email, client, throttle);
    if ('retryAfter' in admission) {
      throw AppError.rateLimited(
        'too many failed logins for this account from this address; try again later or unlock it by e-mail',
        admission.retryAfter,
      );
    }
    if (admission.delayMs > 0) await setTimeout(admission.delayMs);

    // Every login is a member's: a partner's own e-mail is its owner's (migration 0014).
    const member = await findMemberByEmail(em, email);
    const ok = await verifyPassword(body.password, member?.passwordHash ?? DUMMY_HASH);
    if (!member || !ok) throw AppError.unauthorized('email or password is incorrect');
    await clearLoginFailures(em, email, client);
    const partner = await findPartner(em, member.partnerId);
    if (!partner) throw AppError.unauthorized('email or password is incorrect');

    const tokens = await issueTokens(deps, em, member, undefined, Math.floor(Date.now() / 1000));
    return {
      tokens,
      // `id` stays the partner's id, which every client passes as its partnerId.
      user: {
        id: partner.partnerId,
        email: member.email,
        name: partner.partnerName,
        userUrl: partner.userDetailsUrl,
        createdAt: isoTime(partner.createdAt),
        clientId: partner.clientId,
      },
    };
  });
}
