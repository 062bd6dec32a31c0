import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import { enqueueMail } from '../domain/mail/mail-outbox.ts';
import { newResetToken, spendResetToken } from '../domain/security/password-reset.ts';
import { hashPassword } from '../domain/security/passwords.ts';
import { revokeRefreshTokens } from '../domain/security/refresh-tokens.ts';
import { findMemberByEmail, findMemberById, setMemberPassword } from '../domain/team/members.ts';

/** The same answer whether or not the e-mail can log in; the mail carries only our words and the link. */
function requestPasswordResetHandler(deps: IdentityDeps) {
  return handle(identity.requestPasswordReset, async ({ body }) => {
    const email = body.email.toLowerCase();
    const sent = await deps.db.em.transactional(async (tx) => {
      const member = await findMemberByEmail(tx, email);
      if (!member) return false;
      const token = await newResetToken(tx, member.id);
      if (!token) return false;
      const link = new URL(`${deps.config.DASHBOARD_URL}/reset-password#token=${token}`);
      await enqueueMail(tx, {
        to: email,
        subject: 'Reset your password',
        text: [
          'Hello,',
          '',
          'Someone asked to set a new password for your Coin Rewards account.',
          'Open this link within an hour to do so (it works once); every session of yours then ends:',
          '',
          link.href,
          '',
          `Reset token: ${token}`,
          '',
          'If you did not ask, ignore this e-mail: your password stays as it is.',
        ].join('\n'),
        discardAfter: new Date(Date.now() + 3600_000),
      });
      return true;
    });
    if (sent) deps.mail.notify();
    return {};
  });
}

/** Spends the link, sets the password and revokes every refresh token of the member, in one transaction. */
function confirmPasswordResetHandler(deps: IdentityDeps) {
  return handle(identity.confirmPasswordReset, async ({ body, clientIp }) => {
    const passwordHash = await hashPassword(body.newPassword);
    return deps.db.em.transactional(async (tx) => {
      const memberId = await spendResetToken(tx, body.token);
      const member = memberId && (await findMemberById(tx, memberId));
      if (!member)
        throw AppError.unprocessable('INVALID_TOKEN', 'the reset link is unknown, used or expired');
      await setMemberPassword(tx, member, passwordHash);
      await revokeRefreshTokens(tx, member.partnerId, undefined, member.id);
      await recordAudit(tx, {
        partnerId: member.partnerId,
        actor: { memberId: member.id, email: member.email, apiKeyId: null },
        clientIp,
        action: identity.confirmPasswordReset.name,
        summary: `reset the password of ${member.email} by an e-mailed link; its sessions ended`,
        details: { memberId: member.id },
      });
      return { memberId: member.id };
    });
  });
}

export function passwordResetHandlers(deps: IdentityDeps) {
  return [requestPasswordResetHandler(deps), confirmPasswordResetHandler(deps)];
}
