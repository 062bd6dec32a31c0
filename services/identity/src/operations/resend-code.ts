import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import { isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { lockAccountUser } from '../domain/accounts/account-user-store.ts';
import { issueEmailCode } from '../domain/accounts/issue-code.ts';

/** At most one code per EMAIL_CODE_RESEND_SECONDS per account; the row lock makes that exact. */
export function resendCodeHandler(deps: IdentityDeps) {
  const { EMAIL_CODE_RESEND_SECONDS: interval, EMAIL_CODE_TTL_SECONDS: ttl } = deps.config;

  return handle(accounts.resendCode, async ({ body }) => {
    const sent = await deps.db.em.transactional(async (tx) => {
      const found = await lockAccountUser(tx, body.email.toLowerCase());
      if (!found) throw AppError.notFound('no account user with this email');
      if (found.emailVerifiedAt) throw AppError.conflict('email is already verified', 'ALREADY_VERIFIED');
      const sentAt = found.emailCodeSentAt ? Date.parse(found.emailCodeSentAt) : 0;
      const waitMs = sentAt + interval * 1000 - Date.now();
      if (waitMs > 0) {
        throw AppError.rateLimited(
          'a code was sent to this email recently; wait before asking for another',
          Math.ceil(waitMs / 1000),
        );
      }
      return issueEmailCode(tx, found, ttl);
    });
    deps.mail.notify();
    return { email: sent.email, emailCodeExpiresAt: isoTime(sent.emailCodeExpiresAt!) };
  });
}
