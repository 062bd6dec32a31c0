import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { LockMode } from '@mikro-orm/core';
import { issueEmailCode } from '../accounts/issue-code.ts';
import type { IdentityDeps } from '../deps.ts';
import { AccountUser } from '../entities.ts';

/** At most one code per EMAIL_CODE_RESEND_SECONDS per account; the row lock makes that exact. */
export function resendCodeHandler(deps: IdentityDeps) {
  const { EMAIL_CODE_RESEND_SECONDS: interval, EMAIL_CODE_TTL_SECONDS: ttl } = deps.config;

  return handle(accounts.resendCode, async ({ body }) => {
    const sent = await deps.orm.em.transactional(async (tx) => {
      const found = await tx.findOne(
        AccountUser,
        { email: body.email.toLowerCase() },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!found) throw AppError.notFound('no account user with this email');
      if (found.emailVerifiedAt) throw AppError.conflict('email is already verified', 'ALREADY_VERIFIED');
      const waitMs = (found.emailCodeSentAt?.getTime() ?? 0) + interval * 1000 - Date.now();
      if (waitMs > 0) {
        throw AppError.rateLimited(
          'a code was sent to this email recently; wait before asking for another',
          Math.ceil(waitMs / 1000),
        );
      }
      return { email: found.email, expiresAt: await issueEmailCode(tx, found, ttl) };
    });
    deps.mail.notify();
    return { email: sent.email, emailCodeExpiresAt: sent.expiresAt.toISOString() };
  });
}
