import type { EntityManager } from '@coin/db';
import type { InferEntity } from '@mikro-orm/core';
import type { AccountUser } from '../entities.ts';
import { enqueueMail } from '../mail/mail-outbox.ts';
import { hashOneTimeCode, newOneTimeCode } from './one-time-code.ts';

function lifetime(seconds: number): string {
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * Gives the user a fresh code (the previous one stops working, attempts start over) and queues the
 * e-mail that carries it, both in the caller's transaction. Only the hash is stored on the user.
 * Returns when the code expires.
 */
export async function issueEmailCode(
  em: EntityManager,
  user: InferEntity<typeof AccountUser>,
  ttlSeconds: number,
): Promise<Date> {
  const code = newOneTimeCode();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  user.emailCodeHash = await hashOneTimeCode(code);
  user.emailCodeExpiresAt = expiresAt;
  user.emailCodeAttempts = 0;
  user.emailCodeSentAt = now;
  await em.flush();
  await enqueueMail(em, {
    to: user.email,
    subject: 'Your verification code',
    text: [
      `Hello ${user.fullname},`,
      '',
      `Your one-time code is ${code}. It expires in ${lifetime(ttlSeconds)}.`,
      '',
      'If you did not create an account, ignore this e-mail.',
    ].join('\n'),
    discardAfter: expiresAt,
  });
  return expiresAt;
}
