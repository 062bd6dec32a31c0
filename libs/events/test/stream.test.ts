import { randomBytes } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEventsStream } from '../src/index.ts';

let nc: NatsConnection;

beforeAll(async () => {
  nc = await connectBus(
    process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    'stream-test',
    `t${randomBytes(5).toString('hex')}`,
  );
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
  await nc?.close();
});

describe('the events stream', () => {
  it('is created at the configured replicas, kept by calls that configure none, and refused beyond the servers', async () => {
    const jsm = await ensureEventsStream(nc, { replicas: 1 });
    const name = namesOf(nc).stream;
    expect((await jsm.streams.info(name)).config.num_replicas).toBe(1);
    await ensureEventsStream(nc);
    expect((await jsm.streams.info(name)).config.num_replicas).toBe(1);
    // The shared test server is a single node: 3 replicas need a 3-node cluster, and the start-up says so.
    const refused = await ensureEventsStream(nc, { replicas: 3 }).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/replica/i);
    expect((await jsm.streams.info(name)).config.num_replicas).toBe(1);
  });
});
