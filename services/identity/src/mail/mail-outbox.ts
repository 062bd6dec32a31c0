import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@coin/db';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** Past this instant the mail is pointless (its code expired) and is dropped unsent. */
  discardAfter?: Date;
}

/**
 * Stores an e-mail in the caller's transaction: it goes out only if that transaction commits, and
 * it stays in the table until the relay has handed it to the mail server, so a crash loses nothing.
 */
export async function enqueueMail(em: EntityManager, mail: OutgoingMail): Promise<string> {
  const id = randomUUID();
  await em.execute(
    'INSERT INTO mail_outbox (id, recipient, subject, body, discard_after) VALUES (?, ?, ?, ?, ?)',
    [id, mail.to, mail.subject, mail.text, mail.discardAfter ?? null],
  );
  return id;
}
