import { randomBytes } from 'node:crypto';
import { callOperation, connectBus, handle, type NatsConnection, pingService } from '@coin/bus';
import { adminUrlFor, databaseConfigSchema, loadServiceConfig } from '@coin/config';
import { operationsOf } from '@coin/contracts';
import { dropStream, freePort, isolatedDatabases, setUpTestBus } from '@coin/testing';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startService } from '../src/index.ts';

const service = `startup${randomBytes(4).toString('hex')}` as 'identity';
const { internal } = operationsOf(service);
const namespace = `t${randomBytes(5).toString('hex')}`;
const slow = internal('slow', {
  partner: false,
  callers: [],
  schemas: { body: z.object({ ms: z.number() }), response: z.object({ waited: z.number() }) },
});
const dbs = isolatedDatabases([service]);
const config = loadServiceConfig(service, databaseConfigSchema, {
  ...dbs.env,
  APP_MODE: 'development',
  NATS_NAMESPACE: namespace,
  LOG_LEVEL: 'silent',
});
let nc: NatsConnection;
let admin: pg.Client;

beforeAll(async () => {
  // The operator's set-up, as in a deployment: a service only binds to the streams.
  await setUpTestBus({ NATS_URL: config.NATS_URL, NATS_NAMESPACE: namespace });
  nc = await connectBus(config.NATS_URL, 'startup-test', namespace);
  admin = new pg.Client({ connectionString: adminUrlFor(undefined) });
  await admin.connect();
});

afterAll(async () => {
  await nc?.close();
  await admin?.end();
  await dropStream({ NATS_URL: config.NATS_URL, NATS_NAMESPACE: namespace });
  await dbs.drop();
});

async function sessionsOnDatabase(): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
    [new URL(config.databaseUrl).pathname.slice(1)],
  );
  return rows[0].n;
}

const spec = { description: 'start-up test', database: { migrations: [] } };

describe('startService', () => {
  it('stops what had started when start fails: no database session, no replica left', async () => {
    const failed = await startService(config, {
      ...spec,
      start({ background }) {
        background({ stop: () => undefined });
        throw new Error('dependency missing');
      },
    }).catch((err: Error) => err);
    expect((failed as Error).message).toBe('dependency missing');
    expect(await sessionsOnDatabase()).toBe(0);
    expect(await pingService(nc, service)).toEqual([]);
  });

  it('on stop, answers the requests in flight before it stops its background work, last registered first', async () => {
    const order: string[] = [];
    const running = await startService(config, {
      ...spec,
      start({ background }) {
        background({ stop: () => void order.push('worker registered first') });
        background({ stop: () => void order.push('worker registered last') });
        return [
          handle(slow, async ({ body }) => {
            await new Promise((r) => setTimeout(r, body.ms));
            order.push('request answered');
            return { waited: body.ms };
          }),
        ];
      },
    });
    expect(await pingService(nc, service)).toHaveLength(1);
    const inFlight = callOperation(nc, slow, { body: { ms: 300 } }, { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    await running.stop();
    expect(await inFlight).toEqual({ waited: 300 });
    expect(order).toEqual(['request answered', 'worker registered last', 'worker registered first']);
    expect(await sessionsOnDatabase()).toBe(0);
    expect(await pingService(nc, service)).toEqual([]);
  });

  it('an unreachable Redis is reported through the log, not by ioredis on stderr (chaos seed 1: Redis restart)', async () => {
    const unhandled = vi.spyOn(console, 'error');
    let client: Redis | undefined;
    const running = await startService(
      { ...config, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
      {
        ...spec,
        redis: true,
        start({ redis }) {
          client = redis;
          return [];
        },
      },
    );
    try {
      await new Promise((resolve) => client!.once('reconnecting', resolve));
      const fromIoredis = unhandled.mock.calls.filter((args) => String(args[0]).includes('[ioredis]'));
      expect(fromIoredis).toEqual([]);
    } finally {
      unhandled.mockRestore();
      await running.stop();
    }
  });
});
