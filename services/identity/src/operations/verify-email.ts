import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { countWrongCode, lockAccountUser, markEmailVerified } from '../domain/accounts/account-user-store.ts';
import { accountUserView } from '../domain/accounts/account-user-view.ts';
import { verifyOneTimeCode } from '../domain/accounts/one-time-code.ts';
import { DUMMY_HASH } from '../domain/security/passwords.ts';

/**
 * Every failure is the same answer (no account, already verified, expired, too many tries, a wrong
 * code), so it tells no one which e-mails have an account. The code is checked under a row lock,
 * so concurrent guesses are counted one by one; a wrong guess is committed, and past the limit even
 * the right code is refused until a new one is requested.
 */
export function verifyEmailHandler(deps: IdentityDeps) {
  const maxAttempts = deps.config.EMAIL_CODE_MAX_ATTEMPTS;
  const refused = () =>
    AppError.unprocessable('INVALID_CODE', 'the code is incorrect or has expired; request a new code');

  return handle(accounts.verifyEmail, async ({ body }) => {
    const outcome = await deps.db.em.transactional(async (tx) => {
      const user = await lockAccountUser(tx, body.email.toLowerCase());
      const live =
        user &&
        !user.emailVerifiedAt &&
        user.emailCodeHash &&
        user.emailCodeAttempts < maxAttempts &&
        user.emailCodeExpiresAt &&
        Date.parse(user.emailCodeExpiresAt) > Date.now();
      // A check is made either way: the answer's timing does not tell either.
      const right = await verifyOneTimeCode(body.code, live ? user.emailCodeHash! : DUMMY_HASH);
      if (!live) return { error: refused() };
      if (!right) {
        await countWrongCode(tx, user.id);
        return { error: refused() };
      }
      return { user: await markEmailVerified(tx, user.id) };
    });
    if (outcome.error) throw outcome.error;
    return accountUserView(outcome.user);
  });
}
