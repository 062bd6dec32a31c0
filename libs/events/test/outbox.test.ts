import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { runParkedCommand } from '@coin/jobs';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  addToOutbox,
  appliedEventsMigrations,
  applyOnce,
  ensureEventsStream,
  type OutboxRelay,
  outboxMigrations,
  outboxQueue,
  startConsumer,
  startOutboxRelay,
} from '../src/index.ts';
import { CLAIM_DUE_ROWS, RELAY_PASS_SETTINGS } from '../src/outbox.ts';

const log = createLogger('events-test', 'silent');
const namespace = `t${randomBytes(5).toString('hex')}`;
const dbs = isolatedDatabases(['eventstest']);
let db: Database;
let nc: NatsConnection;
let relay: OutboxRelay;

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.EVENTSTEST_DATABASE_URL,
    migrationUrl: dbs.env.EVENTSTEST_MIGRATION_DATABASE_URL,
    migrations: [...outboxMigrations, ...appliedEventsMigrations],
    log,
  });
  await db.em.fork().execute('CREATE TABLE totals (user_id text PRIMARY KEY, amount int NOT NULL)');
  nc = await connectBus(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'events-test', namespace);
  relay = startOutboxRelay({ db, nc, log, intervalMs: 20 });
});

afterAll(async () => {
  await relay?.stop();
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
  await nc?.close();
  await db?.close();
  await dbs.drop();
});

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('transactional outbox and consumers', () => {
  it('publishes what committed, never what rolled back, each event once, applied once', async () => {
    const received: string[] = [];
    const applied: string[] = [];
    const consumer = await startConsumer({
      nc,
      log,
      durable: 'events-test',
      subject: 'events.test.happened',
      schema: z.object({ eventId: z.string(), userId: z.string() }),
      handle: async (event) => {
        received.push(event.eventId);
        await applyOnce(db.em.fork(), 'events-test', event.eventId, async (tx) => {
          applied.push(event.eventId);
          await tx.execute(
            'INSERT INTO totals (user_id, amount) VALUES (?, 1) ON CONFLICT (user_id) DO UPDATE SET amount = totals.amount + 1',
            [event.userId],
          );
        });
      },
    });
    try {
      const userId = randomUUID();
      const committed = await db.em
        .fork()
        .transactional((tx) => addToOutbox(tx, { subject: 'events.test.happened', payload: { userId } }));
      await db.em
        .fork()
        .transactional(async (tx) => {
          await addToOutbox(tx, { subject: 'events.test.happened', payload: { userId } });
          throw new Error('roll back');
        })
        .catch(() => undefined);
      relay.notify();
      await until(async () => received.length >= 1);
      await until(async () => (await relay.backlog()).pending === 0);

      // A redelivery of the same event (a relay that crashed after the ack) has no second effect.
      const js = (await import('@nats-io/jetstream')).jetstream(nc);
      const dup = await js.publish(
        `${namespace}.events.test.happened`,
        JSON.stringify({ eventId: committed, userId }),
        { msgID: committed },
      );
      expect(dup.duplicate).toBe(true);
      await applyOnce(db.em.fork(), 'events-test', committed, async () => {
        applied.push('again');
      });

      // The relay's marks do not wait for the WAL's flush: a Postgres crash may lose one, leaving
      // the row pending as here. The relay publishes it again, and nothing happens twice.
      await db.em.fork().execute('UPDATE outbox SET published_at = NULL WHERE id = ?', [committed]);
      expect((await relay.backlog()).pending).toBe(1);
      relay.notify();
      await until(async () => (await relay.backlog()).pending === 0);

      await new Promise((r) => setTimeout(r, 200));
      expect(received).toEqual([committed]);
      expect(applied).toEqual([committed]);
      const [row] = await db.em
        .fork()
        .execute<{ amount: number }[]>('SELECT amount FROM totals WHERE user_id = ?', [userId]);
      expect(row.amount).toBe(1);
    } finally {
      await consumer.stop();
    }
  });

  it('keeps rows pending while JetStream cannot take them, and publishes them afterwards', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(namesOf(nc).stream);
    const id = await db.em
      .fork()
      .transactional((tx) => addToOutbox(tx, { subject: 'events.test.later', payload: {} }));
    relay.notify();
    await new Promise((r) => setTimeout(r, 200));
    const published = async () => {
      const [row] = await db.em
        .fork()
        .execute<{ published_at: Date | null }[]>('SELECT published_at FROM outbox WHERE id = ?', [id]);
      return row.published_at !== null;
    };
    // No stream, so no acknowledgement: the row must stay unpublished, not be marked sent.
    expect(await published()).toBe(false);
    await ensureEventsStream(nc);
    await until(published);
    const msg = await jsm.streams.getMessage(namesOf(nc).stream, {
      last_by_subj: namesOf(nc).event('events.test.later'),
    });
    expect(msg?.json<{ eventId: string }>().eventId).toBe(id);
  });

  it('parks a row it can never publish without holding back the rows behind it, and publishes it once fixed and replayed', async () => {
    const write = (subject: string, payload: Record<string, unknown>) =>
      db.em.fork().transactional((tx) => addToOutbox(tx, { subject, payload }));
    const maxPayload = nc.info?.max_payload ?? 1024 * 1024;
    const before = await write('events.test.before', {});
    const tooLarge = await write('events.test.large', { blob: 'x'.repeat(maxPayload + 1) });
    const after = await write('events.test.after', {});
    relay.notify();
    const state = async (id: string) => {
      const [row] = await db.em
        .fork()
        .execute<{ published_at: Date | null; parked_at: Date | null; last_error: string | null }[]>(
          'SELECT published_at, parked_at, last_error FROM outbox WHERE id = ?',
          [id],
        );
      return row;
    };
    await until(async () => (await state(after)).published_at !== null);
    expect((await state(before)).published_at).not.toBeNull();
    await until(async () => (await state(tooLarge)).parked_at !== null);
    expect((await state(tooLarge)).last_error).toMatch(/max_payload/);
    expect((await state(tooLarge)).published_at).toBeNull();

    expect(await relay.backlog()).toMatchObject({ pending: 0, parked: 1 });
    const { body } = await renderMetrics();
    expect(body).toMatch(/^coin_outbox_parked_events\{service="events-test"\} 1$/m);
    const listed: string[] = [];
    await runParkedCommand(db, [outboxQueue], ['list', 'outbox'], (l) => listed.push(l));
    expect(listed.map((l) => JSON.parse(l).id)).toEqual([tooLarge]);

    // The operator fixes the row (here: shrinks it), then replays it.
    await db.em
      .fork()
      .execute(
        `UPDATE outbox SET payload = jsonb_build_object('eventId', id::text, 'blob', 'fixed') WHERE id = ?`,
        [tooLarge],
      );
    const replayed: string[] = [];
    await runParkedCommand(db, [outboxQueue], ['replay', 'outbox', tooLarge], (l) => replayed.push(l));
    expect(replayed[0]).toMatch(/^1 outbox job\(s\) replayed/);
    relay.notify();
    await until(async () => (await state(tooLarge)).published_at !== null);
    const jsm = await jetstreamManager(nc);
    const msg = await jsm.streams.getMessage(namesOf(nc).stream, {
      last_by_subj: namesOf(nc).event('events.test.large'),
    });
    expect(msg?.json<{ eventId: string; blob: string }>()).toEqual({ eventId: tooLarge, blob: 'fixed' });
  });

  it('publishes the stored event as its column prints it: numbers keep every digit, text every character', async () => {
    const sub = nc.subscribe(namesOf(nc).event('events.test.verbatim'), { max: 1 });
    const payload = {
      coins: 0,
      narration: 'Café ☕ "quoted" \\ 𝄞',
      nested: { list: [1, null] },
    };
    // A number no JavaScript double holds: parsed and printed again on the way, it would arrive rounded.
    const id = await db.em.fork().transactional(async (tx) => {
      const eventId = await addToOutbox(tx, { subject: 'events.test.verbatim', payload });
      await boundQuery(
        tx,
        `UPDATE outbox SET payload = jsonb_set(payload, '{coins}', '12345678901234567890.25') WHERE id = $1`,
        [eventId],
      );
      return eventId;
    });
    relay.notify();
    for await (const m of sub) {
      const [{ stored }] = await boundQuery<{ stored: string }>(
        db.em.fork(),
        'SELECT payload::text AS stored FROM outbox WHERE id = $1',
        [id],
      );
      expect(m.string()).toBe(stored);
      expect(m.string()).toContain('"coins": 12345678901234567890.25');
      expect(JSON.parse(m.string())).toEqual({
        ...payload,
        coins: Number('12345678901234567890.25'),
        eventId: id,
      });
    }
  });

  it('drains a backlog larger than its batch on one notify, a full batch after another', async () => {
    await relay.stop();
    // No tick of its own within the test: only the notify and the full passes move it.
    relay = startOutboxRelay({ db, nc, log, intervalMs: 60_000, batchSize: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        await db.em
          .fork()
          .transactional((tx) => addToOutbox(tx, { subject: 'events.test.backlog', payload: { i } })),
      );
    relay.notify();
    await until(async () => {
      const [{ n }] = await boundQuery<{ n: number }>(
        db.em.fork(),
        'SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[]) AND published_at IS NOT NULL',
        [ids],
      );
      return n === ids.length;
    });
    await relay.stop();
    relay = startOutboxRelay({ db, nc, log, intervalMs: 20 });
  });

  it('left idle with its default tick, looks about once a second; a row nobody notified still goes out', async () => {
    await relay.stop();
    relay = startOutboxRelay({ db, nc, log });
    const commits = async () => {
      const [{ n }] = await boundQuery<{ n: string }>(
        db.em.fork(),
        'SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()',
        [],
      );
      return Number(n);
    };
    // A backend reports its counts to pg_stat_database at most once a second: the first reading
    // waits for everything before it, and the window is long enough for that lag to stay small.
    await new Promise((r) => setTimeout(r, 1500));
    const before = await commits();
    await new Promise((r) => setTimeout(r, 5000));
    const passes = (await commits()) - before;
    // Each pass commits a transaction of its own: 50 in 5 s at a 100 ms tick.
    expect(passes).toBeLessThanOrEqual(12);
    const id = await db.em
      .fork()
      .transactional((tx) => addToOutbox(tx, { subject: 'events.test.unnotified', payload: {} }));
    await until(async () => {
      const [row] = await boundQuery<{ published: boolean }>(
        db.em.fork(),
        'SELECT published_at IS NOT NULL AS published FROM outbox WHERE id = $1',
        [id],
      );
      return row.published;
    }, 3000);
    await relay.stop();
    relay = startOutboxRelay({ db, nc, log, intervalMs: 20 });
  });

  it('claims in the order of the pending index, not by visiting the rows published since the last vacuum', async () => {
    // A published row stays in the pending index until the table is vacuumed: the test server runs
    // without autovacuum, as a busy outbox does between two of its runs.
    await db.em.fork().transactional(async (tx) => {
      await tx.execute(
        `INSERT INTO outbox (id, subject, payload)
         SELECT gen_random_uuid(), 'events.test.old', '{}' FROM generate_series(1, 60000)`,
      );
      await tx.execute(
        "UPDATE outbox SET published_at = now() WHERE subject = 'events.test.old' AND published_at IS NULL",
      );
    });
    type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };
    const scans = (node: PlanNode): string[] => [
      ...(node['Node Type'].endsWith('Scan')
        ? [`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()]
        : []),
      ...(node.Plans ?? []).flatMap(scans),
    ];
    // Which scan, not how many blocks: while another transaction holds back the oldest snapshot (a
    // test beside this one), an index scan too meets every published row, until they are dead to all.
    const plan = await db.em.fork().transactional(async (tx) => {
      await boundQuery(tx, RELAY_PASS_SETTINGS, []);
      const [row] = await boundQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        tx,
        `EXPLAIN (FORMAT JSON) ${CLAIM_DUE_ROWS}`,
        [200],
      );
      return row['QUERY PLAN'][0].Plan;
    });
    // A bitmap scan visits every row the index lists, in every pass, and sorts what is due.
    expect(scans(plan)).toEqual(['Index Scan outbox_pending']);
  });

  it('retries a row JetStream refuses with backoff and parks it after the last try', async () => {
    await relay.stop();
    relay = startOutboxRelay({
      db,
      nc,
      log,
      intervalMs: 20,
      maxAttempts: 3,
      backoff: { baseMs: 10, capMs: 40 },
    });
    // No stream takes this subject: every try is refused.
    const id = await db.em
      .fork()
      .transactional((tx) => addToOutbox(tx, { subject: 'nowhere.test.refused', payload: {} }));
    const ok = await db.em
      .fork()
      .transactional((tx) => addToOutbox(tx, { subject: 'events.test.fine', payload: {} }));
    relay.notify();
    const row = async (rowId: string) => {
      const [r] = await db.em
        .fork()
        .execute<
          { attempts: number; parked_at: Date | null; published_at: Date | null; last_error: string | null }[]
        >('SELECT attempts, parked_at, published_at, last_error FROM outbox WHERE id = ?', [rowId]);
      return r;
    };
    await until(async () => (await row(id)).parked_at !== null);
    expect((await row(id)).attempts).toBe(3);
    expect((await row(id)).last_error).toMatch(/^no JetStream stream takes \S+nowhere\.test\.refused$/);
    expect((await row(ok)).published_at).not.toBeNull();
  });
});
