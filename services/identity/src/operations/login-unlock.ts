import { handle } from '@coin/bus';
import { loginUnlock } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { enqueueMail } from '../domain/mail/mail-outbox.ts';
import { newUnlockToken, spendUnlockToken } from '../domain/security/login-unlock.ts';
import { findMemberByEmail } from '../domain/team/members.ts';

/**
 * The same answer whether or not the e-mail can log in; the mail carries only our words,
 * the token and the link.
 */
function requestLoginUnlockHandler(deps: IdentityDeps) {
  return handle(loginUnlock.requestLoginUnlock, async ({ body }) => {
    const email = body.email.toLowerCase();
    const sent = await deps.db.em.transactional(async (tx) => {
      // Every login is a team member's (the partner's own e-mail is its owner's).
      if (!(await findMemberByEmail(tx, email))) return false;
      const token = await newUnlockToken(tx, email);
      if (!token) return false;
      const link = new URL(`/api/v1/ufel/partners/login/unlock?token=${token}`, deps.config.PUBLIC_URL);
      await enqueueMail(tx, {
        to: email,
        subject: 'Unlock your password login',
        text: [
          'Hello,',
          '',
          'Someone asked to lift the limits on failed logins to your Coin Rewards account.',
          'Open this link within an hour to do so (it works once):',
          '',
          link.href,
          '',
          `Unlock token: ${token}`,
          '',
          'If you did not ask, ignore this e-mail; consider changing your password.',
        ].join('\n'),
        discardAfter: new Date(Date.now() + 3600_000),
      });
      return true;
    });
    if (sent) deps.mail.notify();
    return {};
  });
}

function unlockLoginHandler(deps: IdentityDeps) {
  return handle(loginUnlock.unlockLogin, async ({ query }) => {
    if (!(await spendUnlockToken(deps.db.em, query.token)))
      throw AppError.unprocessable('INVALID_TOKEN', 'the unlock link is unknown, used or expired');
    return {};
  });
}

export function loginUnlockHandlers(deps: IdentityDeps) {
  return [requestLoginUnlockHandler(deps), unlockLoginHandler(deps)];
}
