import type { EntityManager } from '@coin/db';
import { enqueueMail } from '../mail/mail-outbox.ts';
import { type AccountUserRecord, setEmailCode } from './account-user-store.ts';
import { hashOneTimeCode, newOneTimeCode } from './one-time-code.ts';

function lifetime(seconds: number): string {
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * Gives the user a fresh code (the previous one stops working, attempts start over) and queues the
 * e-mail that carries it, both in the caller's transaction. Only the hash is stored on the user.
 * Returns the user as it now is.
 */
export async function issueEmailCode(
  em: EntityManager,
  user: AccountUserRecord,
  ttlSeconds: number,
): Promise<AccountUserRecord> {
  const code = newOneTimeCode();
  const sentAt = new Date();
  const expiresAt = new Date(sentAt.getTime() + ttlSeconds * 1000);
  const updated = await setEmailCode(em, user.id, { hash: await hashOneTimeCode(code), sentAt, expiresAt });
  await enqueueMail(em, {
    to: user.email,
    subject: 'Your verification code',
    // Only our words and the code: the sign-up's fields are anyone's text, and this address anyone's.
    text: [
      'Hello,',
      '',
      `Your one-time code is ${code}. It expires in ${lifetime(ttlSeconds)}.`,
      '',
      'If you did not create an account, ignore this e-mail.',
    ].join('\n'),
    discardAfter: expiresAt,
  });
  return updated;
}
