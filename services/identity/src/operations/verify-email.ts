import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { countWrongCode, lockAccountUser, markEmailVerified } from '../domain/accounts/account-user-store.ts';
import { accountUserView } from '../domain/accounts/account-user-view.ts';
import { verifyOneTimeCode } from '../domain/accounts/one-time-code.ts';

/**
 * Checks the code under a row lock, so concurrent guesses are counted one by one. A wrong guess is
 * committed (not rolled back with the error), and past the limit even the right code is refused
 * until a new one is requested.
 */
export function verifyEmailHandler(deps: IdentityDeps) {
  const maxAttempts = deps.config.EMAIL_CODE_MAX_ATTEMPTS;

  return handle(accounts.verifyEmail, async ({ body }) => {
    const outcome = await deps.db.em.transactional(async (tx) => {
      const user = await lockAccountUser(tx, body.email.toLowerCase());
      if (!user) return { error: AppError.notFound('no account user with this email') };
      if (user.emailVerifiedAt) {
        return { error: AppError.conflict('email is already verified', 'ALREADY_VERIFIED') };
      }
      if (!user.emailCodeHash || user.emailCodeAttempts >= maxAttempts) {
        return {
          error: AppError.unprocessable('CODE_ATTEMPTS_EXCEEDED', 'too many wrong codes; request a new code'),
        };
      }
      if (!user.emailCodeExpiresAt || Date.parse(user.emailCodeExpiresAt) <= Date.now()) {
        return { error: AppError.unprocessable('CODE_EXPIRED', 'the code has expired; request a new code') };
      }
      if (!(await verifyOneTimeCode(body.code, user.emailCodeHash))) {
        const left = maxAttempts - (await countWrongCode(tx, user.id));
        return {
          error: AppError.unprocessable(
            'INVALID_CODE',
            left > 0
              ? `the code is incorrect; ${left} attempt${left === 1 ? '' : 's'} left`
              : 'the code is incorrect; no attempts left, request a new code',
          ),
        };
      }
      return { user: await markEmailVerified(tx, user.id) };
    });
    if (outcome.error) throw outcome.error;
    return accountUserView(outcome.user);
  });
}
