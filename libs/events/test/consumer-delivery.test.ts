import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventMeta } from '../src/index.ts';
import {
  consume,
  type Event,
  fast,
  fresh,
  parkedOf,
  publish,
  until,
  useConsumerBus,
} from './consumer-support.ts';

useConsumerBus();

describe('one consumer policy: delivery, retries, batches and concurrency', () => {
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
