import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type Database, openDatabase } from '@coin/db';
import { replayParked } from '@coin/jobs';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityConfig } from '../src/config.ts';
import { enqueueMail, mailQueue } from '../src/domain/mail/mail-outbox.ts';
import { EXPIRED, type MailRelay, startMailRelay } from '../src/domain/mail/mail-relay.ts';
import { createMailTransport } from '../src/domain/mail/transport.ts';
import { identityMigrations } from '../src/migrations/index.ts';

const log = createLogger('mail-relay-test', 'silent');
const dbs = isolatedDatabases(['identitymail']);
let db: Database;
let smtp: SMTPServer;
let smtpUrl: string;
const delivered: string[] = [];

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.IDENTITYMAIL_DATABASE_URL,
    migrationUrl: dbs.env.IDENTITYMAIL_MIGRATION_DATABASE_URL,
    migrations: identityMigrations,
    log,
  });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) delivered.push(rcpt.address);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await db?.close();
  await dbs.drop();
});

/** An address where nothing listens: every send is refused. */
async function deadSmtpUrl(): Promise<string> {
  const s = new SMTPServer({ logger: false });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

function relayTo(url: string, maxAttempts = 3): MailRelay {
  const config = identityConfig({ APP_MODE: 'development', SMTP_URL: url, SMTP_TIMEOUT_MS: '2000' });
  return startMailRelay({
    db,
    transport: createMailTransport(config, log),
    log,
    pollMs: 20,
    retryBaseMs: 20,
    retryMaxMs: 40,
    maxAttempts,
    leaseMs: 10_000,
  });
}

async function queue(to: string, discardAfter?: Date): Promise<string> {
  const em = db.em.fork();
  return em.transactional((tx) =>
    enqueueMail(tx, { to, subject: 'test', text: 'code 123456', discardAfter }),
  );
}

interface Row {
  attempts: number;
  body: string | null;
  last_error: string | null;
  sent_at: Date | null;
  parked_at: Date | null;
}

async function row(id: string): Promise<Row> {
  const [r] = await db.em
    .fork()
    .execute<Row[]>('SELECT attempts, body, last_error, sent_at, parked_at FROM mail_outbox WHERE id = ?', [
      id,
    ]);
  return r;
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('mail outbox relay', () => {
  it('parks a mail after the last attempt with the reason, and sends it once replayed', async () => {
    const to = `dead-${randomUUID()}@example.com`;
    const relay = relayTo(await deadSmtpUrl(), 3);
    let id: string;
    try {
      id = await queue(to);
      await until(async () => (await row(id)).parked_at !== null);
      const r = await row(id);
      expect(r.attempts).toBe(3);
      expect(r.sent_at).toBeNull();
      expect(r.body).toBe('code 123456');
      expect(r.last_error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await relay.stop();
    }
    const working = relayTo(smtpUrl);
    try {
      expect(await replayParked(db.em.fork(), mailQueue, [id])).toEqual([id]);
      working.notify();
      await until(async () => (await row(id)).sent_at !== null);
      expect(delivered.filter((d) => d === to)).toHaveLength(1);
      expect((await row(id)).body).toBeNull();
    } finally {
      await working.stop();
    }
  });

  it('drops a mail whose content expired before it could be sent', async () => {
    const relay = relayTo(smtpUrl);
    try {
      const to = `stale-${randomUUID()}@example.com`;
      const id = await queue(to, new Date(Date.now() - 1000));
      await until(async () => (await row(id)).parked_at !== null);
      expect((await row(id)).last_error).toBe(EXPIRED);
      expect((await row(id)).body).toBeNull();
      expect(delivered).not.toContain(to);
    } finally {
      await relay.stop();
    }
  });

  it('delivers each mail once with two relays side by side, and erases sent bodies', async () => {
    const relays = [relayTo(smtpUrl), relayTo(smtpUrl)];
    try {
      const recipients = Array.from({ length: 30 }, () => `pair-${randomUUID()}@example.com`);
      const ids = await Promise.all(recipients.map((to) => queue(to)));
      relays.forEach((r) => {
        r.notify();
      });
      await until(async () => {
        const rows = await Promise.all(ids.map(row));
        return rows.every((r) => r.sent_at !== null);
      });
      for (const to of recipients) expect(delivered.filter((d) => d === to)).toHaveLength(1);
      for (const id of ids) expect((await row(id)).body).toBeNull();
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
  });
});
