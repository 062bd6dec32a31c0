import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import { isoTime } from '@coin/db';
import type { IdentityDeps } from '../deps.ts';
import { lockAccountUser } from '../domain/accounts/account-user-store.ts';
import { issueEmailCode } from '../domain/accounts/issue-code.ts';
import { hashOneTimeCode, newOneTimeCode } from '../domain/accounts/one-time-code.ts';

/**
 * Sends a new code to an account user awaiting verification, at most one per
 * EMAIL_CODE_RESEND_SECONDS and EMAIL_CODE_MAX_PER_DAY per rolling day (the row lock makes both
 * exact). Every call gets the same answer, a code sent or not, an account or not: it tells no one
 * which e-mails have an account, and a refusal to send says nothing an attacker could use.
 */
export function resendCodeHandler(deps: IdentityDeps) {
  const {
    EMAIL_CODE_RESEND_SECONDS: interval,
    EMAIL_CODE_TTL_SECONDS: ttl,
    EMAIL_CODE_MAX_PER_DAY: perDay,
  } = deps.config;

  return handle(accounts.resendCode, async ({ body }) => {
    const email = body.email.toLowerCase();
    const sent = await deps.db.em.transactional(async (tx) => {
      const found = await lockAccountUser(tx, email);
      if (!found || found.emailVerifiedAt) return undefined;
      const sentAt = found.emailCodeSentAt ? Date.parse(found.emailCodeSentAt) : 0;
      if (sentAt + interval * 1000 > Date.now()) return undefined;
      const windowStarted = found.emailCodesWindowStartedAt ? Date.parse(found.emailCodesWindowStartedAt) : 0;
      if (windowStarted > Date.now() - 86_400_000 && found.emailCodesSent >= perDay) return undefined;
      return issueEmailCode(tx, found, ttl);
    });
    if (sent) deps.mail.notify();
    // As long as a code sent would take: the answer's timing does not tell either.
    else await hashOneTimeCode(newOneTimeCode());
    const expiresAt = sent?.emailCodeExpiresAt ?? new Date(Date.now() + ttl * 1000).toISOString();
    return { email, emailCodeExpiresAt: isoTime(expiresAt) };
  });
}
