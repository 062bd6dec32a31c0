import type { Database } from '@coin/db';
import { startJobWorker } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { eraseBody, mailQueue } from './mail-outbox.ts';
import type { MailTransport } from './transport.ts';

export interface MailRelayOptions {
  db: Database;
  transport: MailTransport;
  log: Logger;
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** How long a claimed mail is left alone by other relays; longer than one send can take. */
  leaseMs: number;
  concurrency?: number;
}

export interface MailRelay {
  /** Send now rather than at the next poll (call after a commit that queued mail). */
  notify(): void;
  stop(): Promise<void>;
}

interface QueuedMail {
  recipient: string;
  subject: string;
  body: string;
  stale: boolean;
}

export const EXPIRED = 'expired before it could be sent';

/**
 * Relays `mail_outbox` to the mail server through the `mail` job queue: each mail is sent outside
 * any transaction and marked sent after; a crash mid-way sends it again when its lease ends (at
 * least once). A mail the server keeps refusing is parked after `maxAttempts`, body kept, so an
 * operator can replay it; one whose content expired is parked unsent, body erased.
 */
export function startMailRelay(opts: MailRelayOptions): MailRelay {
  const worker = startJobWorker<QueuedMail>({
    db: opts.db,
    log: opts.log,
    service: 'identity',
    queue: mailQueue,
    columns: 'recipient, subject, body, coalesce(discard_after <= now(), false) AS stale',
    concurrency: opts.concurrency ?? 8,
    leaseMs: opts.leaseMs,
    pollMs: opts.pollMs,
    maxAttempts: opts.maxAttempts,
    backoff: { baseMs: opts.retryBaseMs, capMs: opts.retryMaxMs },
    async run(mail) {
      if (mail.stale || mail.body === null) {
        await eraseBody(opts.db.em.fork(), mail.id);
        return { park: EXPIRED };
      }
      await opts.transport.send({ to: mail.recipient, subject: mail.subject, text: mail.body });
      opts.log.info({ mailId: mail.id, attempt: mail.attempts }, 'e-mail sent');
      return 'done';
    },
  });
  return {
    notify: worker.notify,
    async stop() {
      await worker.stop();
      opts.transport.close();
    },
  };
}
