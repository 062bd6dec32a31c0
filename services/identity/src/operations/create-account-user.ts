import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { accountUserView } from '../accounts/account-user-view.ts';
import { issueEmailCode } from '../accounts/issue-code.ts';
import type { IdentityDeps } from '../deps.ts';
import { AccountUser } from '../entities.ts';
import { hashPassword } from '../security/passwords.ts';

/** The unique indexes decide, so that of concurrent sign-ups with one tag exactly one commits. */
function conflictFor(err: UniqueConstraintViolationException): AppError {
  const constraint = (err as { constraint?: string }).constraint;
  if (constraint === 'account_users_tag_key') return AppError.conflict('Tag Already Taken', '');
  return AppError.conflict('an account user with this email already exists');
}

export function createAccountUserHandler(deps: IdentityDeps) {
  return handle(accounts.createAccountUser, async ({ body }) => {
    const passwordHash = await hashPassword(body.password);
    const user = await deps.orm.em
      .transactional(async (tx) => {
        const created = tx.create(AccountUser, {
          id: randomUUID(),
          fullname: body.fullname,
          tag: body.tag,
          email: body.email.toLowerCase(),
          passwordHash,
          phone: body.phone,
          countryCode: body.countryCode,
          isAdult: body.isAdult,
          dateOfBirth: body.dateOfBirth,
        });
        // Insert first: a sign-up that loses the tag or e-mail stops here, before hashing a code.
        await tx.flush();
        await issueEmailCode(tx, created, deps.config.EMAIL_CODE_TTL_SECONDS);
        return created;
      })
      .catch((err: unknown) => {
        throw err instanceof UniqueConstraintViolationException ? conflictFor(err) : err;
      });
    deps.mail.notify();
    return accountUserView(user);
  });
}
