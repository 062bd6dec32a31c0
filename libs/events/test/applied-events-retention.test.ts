import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { eventuallyPasses, isolatedDatabases } from '@coin/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appliedEventsMigrations,
  applyOnce,
  createDurable,
  keepAppliedId,
  listParked,
  type ParkedEvent,
  parkedStreamName,
  type RunningConsumer,
  setUpBus,
  startAppliedEventsRetention,
  startConsumer,
} from '../src/index.ts';

const log = createLogger('applied-retention-test', 'silent');
const dbs = isolatedDatabases(['appliedtest']);
const namespace = `t${randomBytes(5).toString('hex')}`;
let db: Database;
let nc: NatsConnection;

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.APPLIEDTEST_DATABASE_URL,
    migrationUrl: dbs.env.APPLIEDTEST_MIGRATION_DATABASE_URL,
    migrations: appliedEventsMigrations,
    log,
  });
  nc = await connectBus(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'applied-retention-test', namespace);
  await setUpBus(nc, []);
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
  await jsm.streams.delete(parkedStreamName(nc)).catch(() => undefined);
  await nc?.close();
  await db?.close();
  await dbs.drop();
});

/** `count` applied ids of `consumer`, applied `daysAgo`, pinned or not. */
async function applied(consumer: string, count: number, daysAgo: number, pinned = false): Promise<void> {
  await boundQuery(
    db.em.fork(),
    `INSERT INTO applied_events (consumer, event_id, applied_at, pinned)
     SELECT $1, gen_random_uuid()::text, now() - make_interval(days => $3), $4
       FROM generate_series(1, $2::int)`,
    [consumer, count, daysAgo, pinned],
  );
}

async function kept(consumer: string): Promise<{ old: number; recent: number; pinned: number }> {
  const [row] = await boundQuery<{ old: number; recent: number; pinned: number }>(
    db.em.fork(),
    `SELECT count(*) FILTER (WHERE applied_at < now() - interval '31 days' AND NOT pinned)::int AS old,
            count(*) FILTER (WHERE applied_at >= now() - interval '31 days')::int AS recent,
            count(*) FILTER (WHERE pinned)::int AS pinned
       FROM applied_events WHERE consumer = $1`,
    [consumer],
  );
  return row;
}

async function purged(service: string): Promise<number> {
  const { body } = await renderMetrics();
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`coin_applied_events_purged_total{service="${service}"}`));
  return Number(line?.split(' ')[1] ?? 0);
}

const schema = z.object({ eventId: z.guid() });

async function parkedOf(durable: string): Promise<ParkedEvent[]> {
  const out: ParkedEvent[] = [];
  for await (const p of listParked(nc, durable)) out.push(p);
  return out;
}

async function publish(subject: string, eventId: string): Promise<void> {
  await jetstream(nc).publish(namesOf(nc).event(subject), JSON.stringify({ eventId }), { msgID: eventId });
}

describe('applied-event ids', () => {
  it('are deleted a day after the events stream lets their events go, chunk after chunk, unless pinned', async () => {
    const consumer = `purge-${randomUUID().slice(0, 8)}`;
    // More than two of the purge's chunks.
    await applied(consumer, 10_001, 32);
    await applied(consumer, 3, 30);
    await applied(consumer, 2, 90, true);
    const service = `applied-${randomUUID().slice(0, 8)}`;
    const retention = startAppliedEventsRetention({ db, log, service });
    try {
      await eventuallyPasses(async () =>
        expect(await kept(consumer)).toEqual({ old: 0, recent: 3, pinned: 2 }),
      );
      expect(await purged(service)).toBe(10_001);
    } finally {
      await retention.stop();
    }
  });

  it('of an event parked after it was applied are pinned, so its replay months later has no second effect', async () => {
    const durable = `pin-${randomBytes(4).toString('hex')}`;
    const subject = `events.test.${durable}`;
    let offsetMs = 0;
    let effects = 0;
    await createDurable(nc, { durable, subject });
    const consumer: RunningConsumer = await startConsumer({
      nc,
      log,
      durable,
      subject,
      schema,
      retry: { baseMs: 10, capMs: 50 },
      now: () => Date.now() + offsetMs,
      beforePark: keepAppliedId(db, [durable]),
      // Applied and committed; the step after the commit (an index, a cache) keeps failing.
      handle: async (event) => {
        await applyOnce(db.em.fork(), durable, event.eventId, async () => void effects++);
        throw new Error('index unavailable');
      },
    });
    try {
      const eventId = randomUUID();
      await publish(subject, eventId);
      await eventuallyPasses(async () => expect(effects).toBe(1));
      offsetMs = 24 * 3600_000;
      await eventuallyPasses(async () => expect(await parkedOf(durable)).toHaveLength(1));
      const [row] = await boundQuery<{ pinned: boolean }>(
        db.em.fork(),
        'SELECT pinned FROM applied_events WHERE consumer = $1 AND event_id = $2',
        [durable, eventId],
      );
      expect(row).toEqual({ pinned: true });

      await boundQuery(
        db.em.fork(),
        "UPDATE applied_events SET applied_at = now() - interval '60 days' WHERE consumer = $1",
        [durable],
      );
      // An id of the same age, not pinned: the purge has run once it is gone.
      await applied(durable, 1, 60);
      const retention = startAppliedEventsRetention({ db, log, service: durable });
      try {
        await eventuallyPasses(async () =>
          expect(await kept(durable)).toEqual({ old: 0, recent: 0, pinned: 1 }),
        );
      } finally {
        await retention.stop();
      }
      expect(await applyOnce(db.em.fork(), durable, eventId, async () => void effects++)).toBe(false);
      expect(effects).toBe(1);
    } finally {
      await consumer.stop();
    }
  });

  it('of an event about to be parked are pinned first: while the pin cannot be written, the event is retried, not parked', async () => {
    const durable = `nopin-${randomBytes(4).toString('hex')}`;
    const subject = `events.test.${durable}`;
    let pinFailures = 3;
    let pinned = 0;
    await createDurable(nc, { durable, subject });
    const consumer = await startConsumer({
      nc,
      log,
      durable,
      subject,
      schema,
      retry: { baseMs: 10, capMs: 50, forMs: 0 },
      beforePark: async () => {
        if (pinFailures-- > 0) throw new Error('database unavailable');
        pinned++;
      },
      handle: async () => {
        throw new Error('handler failing');
      },
    });
    try {
      const eventId = randomUUID();
      await publish(subject, eventId);
      await eventuallyPasses(async () =>
        expect(await parkedOf(durable)).toEqual([expect.objectContaining({ deliveries: 4 })]),
      );
      expect(pinned).toBe(1);
    } finally {
      await consumer.stop();
    }
  });
});
