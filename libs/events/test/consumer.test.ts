import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ConsumerOptions,
  type EventMeta,
  ensureEventsStream,
  listParked,
  type ParkedEvent,
  parkedStreamName,
  type RunningConsumer,
  replayParked,
  startConsumer,
} from '../src/index.ts';

const log = createLogger('consumer-test', 'silent');
const namespace = `t${randomBytes(5).toString('hex')}`;
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
let nc: NatsConnection;
const running: RunningConsumer[] = [];

const schema = z.object({ eventId: z.guid(), amount: z.number().int().positive() });
type Event = z.infer<typeof schema>;
const fast = { baseMs: 10, capMs: 50 };

beforeAll(async () => {
  nc = await connectBus(natsUrl, 'consumer-test', namespace);
  await ensureEventsStream(nc);
});

afterAll(async () => {
  for (const c of running) await c.stop();
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
  await jsm.streams.delete(parkedStreamName(nc)).catch(() => undefined);
  await nc?.close();
});

/** A subject and durable of the test's own, so tests never see each other's events. */
function fresh(): { subject: string; durable: string } {
  const id = randomBytes(4).toString('hex');
  return { subject: `events.test.t${id}`, durable: `test-${id}` };
}

type TestOptions =
  ConsumerOptions<typeof schema> extends infer U
    ? U extends unknown
      ? Omit<U, 'nc' | 'log' | 'schema'>
      : never
    : never;

async function consume(opts: TestOptions) {
  const c = await startConsumer({ nc, log, schema, ...opts } as ConsumerOptions<typeof schema>);
  running.push(c);
  return c;
}

async function publish(subject: string, payload: unknown): Promise<string> {
  const id = randomUUID();
  const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
  await jetstream(nc).publish(namesOf(nc).event(subject), data, { msgID: id });
  return id;
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function parkedOf(durable: string): Promise<ParkedEvent[]> {
  const out: ParkedEvent[] = [];
  for await (const p of listParked(nc, durable)) out.push(p);
  return out;
}

async function parkedGauge(durable: string): Promise<number | undefined> {
  const { body } = await renderMetrics();
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`coin_consumer_parked_events{durable="${durable}"}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('one consumer policy', () => {
  it('parks a malformed event at once, unhandled; it is counted, listed by the command, and replayed to its durable only', async () => {
    const { subject, durable } = fresh();
    const handled: Event[] = [];
    const otherSaw: Event[] = [];
    await consume({ durable, subject, retry: fast, handle: async (e) => void handled.push(e) });
    await consume({ durable: `${durable}-other`, subject, handle: async (e) => void otherSaw.push(e) });

    await publish(subject, { eventId: randomUUID(), amount: -3 });
    await publish(subject, 'not json {');
    const good = { eventId: randomUUID(), amount: 5 };
    await publish(subject, good);

    const parked = await until(async () => {
      const p = await parkedOf(durable);
      return p.length === 2 ? p : undefined;
    });
    expect(parked.map((p) => p.reason)).toEqual([
      'malformed: amount: must be greater than 0',
      expect.stringMatching(/^malformed: not JSON/),
    ]);
    expect(parked[0]).toMatchObject({ durable, subject: namesOf(nc).event(subject), deliveries: 1 });
    expect(handled).toEqual([good]);
    expect(await parkedGauge(durable)).toBe(2);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['libs/events/src/parked-command.ts', 'list', '--durable', durable],
      { env: { ...process.env, NATS_URL: natsUrl, NATS_NAMESPACE: namespace } },
    );
    const listed = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ParkedEvent);
    expect(listed.map((p) => p.seq)).toEqual(parked.map((p) => p.seq));

    // Replayed as it is, it is still malformed: parked again, and the other durable never sees it.
    await replayParked(nc, parked[0].seq);
    const again = await until(async () => {
      const p = await parkedOf(durable);
      return p.length === 2 && p[1].seq > parked[1].seq ? p : undefined;
    });
    expect(again.map((p) => p.payload)).toEqual([parked[1].payload, parked[0].payload]);
    expect(otherSaw).toEqual([good]);
  });

  it('applies an event that fails 3 times once, on its 4th delivery, with backoff between', async () => {
    const { subject, durable } = fresh();
    const tries: number[] = [];
    const applied: string[] = [];
    await consume({
      durable,
      subject,
      retry: fast,
      handle: async (e, meta) => {
        tries.push(meta.deliveries);
        if (tries.length <= 3) throw new Error('database unavailable');
        applied.push(e.eventId);
      },
    });
    const event = { eventId: randomUUID(), amount: 1 };
    await publish(subject, event);
    await until(() => applied.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(tries).toEqual([1, 2, 3, 4]);
    expect(applied).toEqual([event.eventId]);
    expect(await parkedOf(durable)).toEqual([]);
  });

  it('retries a failing event until 24 hours after its first delivery, then parks it; replayed once fixed, it is applied', async () => {
    const { subject, durable } = fresh();
    let offsetMs = 0;
    let broken = true;
    const tries: number[] = [];
    const applied: string[] = [];
    await consume({
      durable,
      subject,
      retry: fast,
      now: () => Date.now() + offsetMs,
      handle: async (e, meta) => {
        tries.push(meta.deliveries);
        if (broken) throw new Error('redis unavailable');
        applied.push(e.eventId);
      },
    });
    const event = { eventId: randomUUID(), amount: 2 };
    await publish(subject, event);
    // Many deliveries within the day: a count never decides.
    await until(() => tries.length >= 20);
    expect(await parkedOf(durable)).toEqual([]);

    offsetMs = 23 * 3600_000;
    const before = tries.length;
    await until(() => tries.length >= before + 3);
    expect(await parkedOf(durable)).toEqual([]);

    offsetMs = 24 * 3600_000;
    const [parked] = await until(async () => {
      const p = await parkedOf(durable);
      return p.length === 1 ? p : undefined;
    });
    expect(parked.reason).toMatch(/^failed for 86400000 ms: Error: redis unavailable/);
    expect(JSON.parse(parked.payload)).toEqual(event);
    const settled = tries.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(tries.length).toBe(settled);

    broken = false;
    await replayParked(nc, parked.seq);
    await until(() => applied.length === 1);
    expect(applied).toEqual([event.eventId]);
    expect(await parkedOf(durable)).toEqual([]);
    expect(await parkedGauge(durable)).toBe(0);
  });

  it('gives handlers the parsed event and a small metadata object, never the message', async () => {
    const { subject, durable } = fresh();
    const calls: unknown[][] = [];
    await consume({
      durable,
      subject,
      handle: async (...args) => void calls.push(args),
    });
    const event = { eventId: randomUUID(), amount: 7 };
    await publish(subject, { ...event, unknownField: 'dropped by the schema' });
    await until(() => calls.length === 1);
    const [args] = calls;
    expect(args).toHaveLength(2);
    expect(args[0]).toEqual(event);
    const meta = args[1] as EventMeta;
    expect(Object.keys(meta).sort()).toEqual(['deliveries', 'publishedAt', 'seq', 'subject']);
    expect(meta.deliveries).toBe(1);
    expect(Math.abs(meta.publishedAt.getTime() - Date.now())).toBeLessThan(60_000);
    for (const value of Object.values(meta)) expect(typeof value).not.toBe('function');
  });

  it('runs at most `concurrency` handlers at once', async () => {
    const { subject, durable } = fresh();
    let inFlight = 0;
    let most = 0;
    let done = 0;
    await consume({
      durable,
      subject,
      concurrency: 3,
      handle: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 50));
        inFlight -= 1;
        done += 1;
      },
    });
    for (let i = 0; i < 12; i++) await publish(subject, { eventId: randomUUID(), amount: 1 });
    await until(() => done === 12);
    expect(most).toBe(3);
  });

  it('hands a batch to a batch handler, and retries the events of a failed batch one by one', async () => {
    const { subject, durable } = fresh();
    const batches: Event[][] = [];
    const poison = randomUUID();
    let failedOnce = false;
    await consume({
      durable,
      subject,
      retry: fast,
      batch: { size: 10, lingerMs: 200 },
      handleBatch: async (events) => {
        batches.push(events);
        if (events.some((e) => e.eventId === poison) && !failedOnce) {
          failedOnce = true;
          throw new Error('one bad row fails the transaction');
        }
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const eventId = i === 4 ? poison : randomUUID();
      ids.push(eventId);
      await publish(subject, { eventId, amount: 1 });
    }
    await until(() => batches.length === 11);
    expect(batches[0].map((e) => e.eventId)).toEqual(ids);
    expect(batches.slice(1).map((b) => b.length)).toEqual(Array(10).fill(1));
    expect(
      batches
        .slice(1)
        .map((b) => b[0].eventId)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('keeps a handler that runs longer than the ack wait from being redelivered meanwhile', async () => {
    const { subject, durable } = fresh();
    const deliveries: number[] = [];
    await consume({
      durable,
      subject,
      ackWaitMs: 1000,
      handle: async (_e, meta) => {
        deliveries.push(meta.deliveries);
        await new Promise((r) => setTimeout(r, 3500));
      },
    });
    await publish(subject, { eventId: randomUUID(), amount: 1 });
    await until(() => deliveries.length === 1);
    await new Promise((r) => setTimeout(r, 5000));
    expect(deliveries).toEqual([1]);
  }, 15_000);
});
