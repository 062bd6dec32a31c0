import type { Database } from '@coin/db';
import { startPollLoop } from '@coin/events';
import type { Logger } from '@coin/telemetry';
import type { MailTransport } from './transport.ts';

export interface MailRelayOptions {
  orm: Database;
  transport: MailTransport;
  log: Logger;
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** How long a claimed row is left alone by other relays; longer than one send can take. */
  leaseMs: number;
  batchSize?: number;
}

export interface MailRelay {
  /** Send now rather than at the next poll (call after a commit that queued mail). */
  notify(): void;
  stop(): Promise<void>;
}

interface ClaimedMail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
  stale: boolean;
}

export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Relays `mail_outbox` to the mail server. A row is claimed by pushing its next attempt one lease
 * ahead (FOR UPDATE SKIP LOCKED, so replicas never claim the same row), sent outside any
 * transaction, then marked sent. A crash after the claim leaves the row to be retried when the
 * lease ends: delivery is at least once. Failures back off exponentially up to `maxAttempts`, after
 * which the row is marked failed. Bodies are erased once a row is settled: they hold codes.
 */
export function startMailRelay(opts: MailRelayOptions): MailRelay {
  const batch = opts.batchSize ?? 50;

  async function settle(id: string, sql: string, params: unknown[] = []): Promise<void> {
    await opts.orm.em
      .fork()
      .execute(`UPDATE mail_outbox SET ${sql}, body = NULL WHERE id = ?`, [...params, id]);
  }

  async function deliver(mail: ClaimedMail): Promise<void> {
    const log = opts.log.child({ mailId: mail.id, attempt: mail.attempts });
    if (mail.stale) {
      await settle(mail.id, "failed_at = now(), last_error = 'expired before it could be sent'");
      log.warn('e-mail dropped: its content expired before it could be sent');
      return;
    }
    try {
      await opts.transport.send({ to: mail.recipient, subject: mail.subject, text: mail.body });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (mail.attempts >= opts.maxAttempts) {
        await settle(mail.id, 'failed_at = now(), last_error = ?', [reason]);
        log.error({ err }, 'e-mail given up after the last attempt');
        return;
      }
      const delay = retryDelayMs(mail.attempts, opts.retryBaseMs, opts.retryMaxMs);
      await opts.orm.em
        .fork()
        .execute(
          'UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ?), last_error = ? WHERE id = ?',
          [delay / 1000, reason, mail.id],
        );
      log.warn({ err, retryInMs: delay }, 'e-mail not sent; will retry');
      return;
    }
    await settle(mail.id, 'sent_at = now(), last_error = NULL');
    log.info('e-mail sent');
  }

  async function relayOnce(): Promise<number> {
    const rows = await opts.orm.em.fork().execute<ClaimedMail[]>(
      `UPDATE mail_outbox m
          SET attempts = m.attempts + 1, next_attempt_at = now() + make_interval(secs => ?)
        WHERE m.id IN (SELECT id FROM mail_outbox
                        WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
                        ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.recipient, m.subject, m.body, m.attempts,
                  coalesce(m.discard_after <= now(), false) AS stale`,
      [opts.leaseMs / 1000, batch],
    );
    await Promise.all(rows.map(deliver));
    return rows.length;
  }

  const loop = startPollLoop({
    once: relayOnce,
    intervalMs: opts.pollMs,
    onError: (err) => opts.log.warn({ err }, 'mail relay failed; will retry'),
  });

  return {
    notify: loop.notify,
    async stop() {
      await loop.stop();
      opts.transport.close();
    },
  };
}
