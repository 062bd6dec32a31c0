import { randomUUID } from 'node:crypto';
import { namesOf } from '@coin/bus';
import { boundQuery } from '@coin/db';
import { runParkedCommand } from '@coin/jobs';
import { renderMetrics } from '@coin/telemetry';
import { jetstreamManager } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  addToOutbox,
  applyOnce,
  ensureEventsStream,
  outboxQueue,
  setUpBus,
  startConsumer,
} from '../src/index.ts';
import { db, log, namespace, nc, relay, restartRelay, until, useOutboxRelay } from './outbox-support.ts';

useOutboxRelay();

describe('transactional outbox: what is published, and once', () => {
  it('publishes what committed, never what rolled back, each event once, applied once', async () => {
    const received: string[] = [];
    const applied: string[] = [];
    // The operator's set-up: the streams and the durable, which the consumer binds to.
    await setUpBus(nc, [{ durable: 'events-test', subject: 'events.test.happened' }]);
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

  it('retries a row JetStream refuses with backoff and parks it after the last try', async () => {
    await restartRelay({
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
