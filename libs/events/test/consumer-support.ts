import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import {
  type ConsumerOptions,
  createDurable,
  listParked,
  type ParkedEvent,
  parkedStreamName,
  type RunningConsumer,
  setUpBus,
  startConsumer,
} from '../src/index.ts';

const log = createLogger('consumer-test', 'silent');
export const namespace = `t${randomBytes(5).toString('hex')}`;
export const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export let nc: NatsConnection;
const running: RunningConsumer[] = [];

export const schema = z.object({ eventId: z.guid(), amount: z.number().int().positive() });
export type Event = z.infer<typeof schema>;
export const fast = { baseMs: 10, capMs: 50 };

/** A subject and durable of the test's own, so tests never see each other's events. */
export function fresh(): { subject: string; durable: string } {
  const id = randomBytes(4).toString('hex');
  return { subject: `events.test.t${id}`, durable: `test-${id}` };
}

type TestOptions =
  ConsumerOptions<typeof schema> extends infer U
    ? U extends unknown
      ? Omit<U, 'nc' | 'log' | 'schema'>
      : never
    : never;

/** The durable created as the operator's set-up would (`ackWaitMs`: its ack wait), then consumed. */
export async function consume(opts: TestOptions & { ackWaitMs?: number }) {
  const { ackWaitMs, ...rest } = opts;
  await createDurable(nc, { durable: rest.durable, subject: rest.subject }, ackWaitMs);
  const c = await startConsumer({ nc, log, schema, ...rest } as ConsumerOptions<typeof schema>);
  running.push(c);
  return c;
}

export async function publish(subject: string, payload: unknown): Promise<string> {
  const id = randomUUID();
  const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
  await jetstream(nc).publish(namesOf(nc).event(subject), data, { msgID: id });
  return id;
}

export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function parkedOf(durable: string): Promise<ParkedEvent[]> {
  const out: ParkedEvent[] = [];
  for await (const p of listParked(nc, durable)) out.push(p);
  return out;
}

export async function parkedGauge(durable: string): Promise<number | undefined> {
  const { body } = await renderMetrics();
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`coin_consumer_parked_events{durable="${durable}"}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

/** Registers the set-up and tear-down of the calling test file. */
export function useConsumerBus(): void {
  beforeAll(async () => {
    nc = await connectBus(natsUrl, 'consumer-test', namespace);
    // The operator's set-up of the namespace: the streams; each test creates its own durable as it does.
    await setUpBus(nc, []);
  });

  afterAll(async () => {
    for (const c of running) await c.stop();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
    await jsm.streams.delete(parkedStreamName(nc)).catch(() => undefined);
    await nc?.close();
  });
}
