import { randomUUID } from 'node:crypto';
import { boundQuery, type EntityManager } from '@coin/db';
import type { JobQueue } from '@coin/jobs';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** Past this instant the mail is pointless (its code expired) and is dropped unsent. */
  discardAfter?: Date;
}

/** Mail not yet handed to the mail server; a sent mail's body (it holds a code) is erased. */
export const mailQueue: JobQueue = {
  name: 'mail',
  table: 'mail_outbox',
  unfinished: 'sent_at IS NULL',
  onDone: 'sent_at = now(), body = NULL',
};

/**
 * Stores an e-mail in the caller's transaction: it goes out only if that transaction commits, and
 * it stays in the table until the relay has handed it to the mail server, so a crash loses nothing.
 */
export async function enqueueMail(em: EntityManager, mail: OutgoingMail): Promise<string> {
  const id = randomUUID();
  await boundQuery(
    em,
    'INSERT INTO mail_outbox (id, recipient, subject, body, discard_after) VALUES ($1, $2, $3, $4, $5)',
    [id, mail.to, mail.subject, mail.text, mail.discardAfter ?? null],
  );
  return id;
}

/** A mail dropped unsent keeps no code. */
export async function eraseBody(em: EntityManager, id: string): Promise<void> {
  await boundQuery(em, 'UPDATE mail_outbox SET body = NULL WHERE id = $1', [id]);
}
