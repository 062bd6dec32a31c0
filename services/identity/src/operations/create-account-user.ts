import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { accounts } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { EmailTaken, insertAccountUser } from '../domain/accounts/account-user-store.ts';
import { accountUserView } from '../domain/accounts/account-user-view.ts';
import { issueEmailCode } from '../domain/accounts/issue-code.ts';
import { hashPassword } from '../domain/security/passwords.ts';

/**
 * A sign-up whose e-mail already has an account is answered as a new one would be, and nothing is
 * stored or mailed: the answer does not tell who has an account. A taken tag is the 409 the
 * specification shows (docs/decisions/2026-11-28-account-mail-and-enumeration.md).
 */
export function createAccountUserHandler(deps: IdentityDeps) {
  const ttl = deps.config.EMAIL_CODE_TTL_SECONDS;
  return handle(accounts.createAccountUser, async ({ body }) => {
    const passwordHash = await hashPassword(body.password);
    const fields = {
      id: randomUUID(),
      fullname: body.fullname,
      tag: body.tag,
      email: body.email.toLowerCase(),
      phone: body.phone,
      countryCode: body.countryCode,
      isAdult: body.isAdult,
      dateOfBirth: body.dateOfBirth,
    };
    try {
      const user = await deps.db.em.transactional(async (tx) => {
        // Insert first: a sign-up that loses the tag or e-mail stops here, before hashing a code.
        const created = await insertAccountUser(tx, { ...fields, passwordHash });
        return issueEmailCode(tx, created, ttl);
      });
      deps.mail.notify();
      return accountUserView(user);
    } catch (err) {
      if (!(err instanceof EmailTaken)) throw err;
      const now = new Date();
      return accountUserView({
        ...fields,
        emailVerifiedAt: null,
        emailCodeHash: null,
        emailCodeExpiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
        emailCodeAttempts: 0,
        emailCodeSentAt: now.toISOString(),
        emailCodesSent: 1,
        emailCodesWindowStartedAt: now.toISOString(),
        createdAt: now.toISOString(),
      });
    }
  });
}
