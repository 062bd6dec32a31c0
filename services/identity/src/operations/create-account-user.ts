import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { insertAccountUser } from '../domain/accounts/account-user-store.ts';
import { accountUserView } from '../domain/accounts/account-user-view.ts';
import { issueEmailCode } from '../domain/accounts/issue-code.ts';
import { hashPassword } from '../domain/security/passwords.ts';

export function createAccountUserHandler(deps: IdentityDeps) {
  return handle(accounts.createAccountUser, async ({ body }) => {
    const passwordHash = await hashPassword(body.password);
    const user = await deps.db.em.transactional(async (tx) => {
      // Insert first: a sign-up that loses the tag or e-mail stops here, before hashing a code.
      const created = await insertAccountUser(tx, {
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
      return issueEmailCode(tx, created, deps.config.EMAIL_CODE_TTL_SECONDS);
    });
    deps.mail.notify();
    return accountUserView(user);
  });
}
