import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  /** Every mail accepted so far, in order. */
  received: ReceivedMail[];
  /** The next one-time code sent to `email` that has not been taken yet. */
  nextCode(email: string, timeoutMs?: number): Promise<string>;
  /** Stops accepting connections (the port stays reserved for `open`). */
  close(): Promise<void>;
  open(): Promise<void>;
}

const CODE = /one-time code is (\d{6})/;

/** A real SMTP server on a free loopback port that keeps what it receives. */
export async function startMailbox(): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  let server: SMTPServer | undefined;
  let port = 0;

  function listen(): Promise<void> {
    const s = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((a) => a.address.toLowerCase()),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    server = s;
    return new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  await listen();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async nextCode(email, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => !taken.has(m) && m.to.includes(email.toLowerCase()));
        if (mail) {
          taken.add(mail);
          const m = CODE.exec(mail.raw);
          if (!m) throw new Error(`no code in the mail to ${email}:\n${mail.raw}`);
          return m[1];
        }
        if (Date.now() > deadline) throw new Error(`no mail reached ${email} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close() {
      return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
    open: listen,
  };
}
