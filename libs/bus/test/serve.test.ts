import { randomBytes, randomUUID } from 'node:crypto';
import { operationsOf } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { createLogger } from '@coin/telemetry';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callOperation,
  connectBus,
  ensurePayloadStream,
  handle,
  type NatsConnection,
  namesOf,
  PAYLOAD_STREAM,
  pingService,
  serveOperations,
} from '../src/index.ts';

const service = `bustest${randomUUID().slice(0, 8)}` as 'identity';
const { internal } = operationsOf(service);
const echo = internal('echo', {
  partner: false,
  callers: [],
  schemas: { body: z.object({ text: z.string() }), response: z.object({ text: z.string() }) },
});
const whoAmI = internal('whoAmI', {
  partner: true,
  callers: [],
  schemas: { body: z.object({}), response: z.object({ partnerId: z.string() }) },
});
const fail = internal('fail', {
  partner: false,
  callers: [],
  schemas: { body: z.object({}), response: z.object({}) },
});
const grow = internal('grow', {
  partner: false,
  callers: [],
  schemas: { body: z.object({ bytes: z.number().int() }), response: z.object({ text: z.string() }) },
});
const crash = internal('crash', {
  partner: false,
  callers: [],
  schemas: { body: z.object({}), response: z.object({}) },
});

const sleep = internal('sleep', {
  partner: false,
  callers: [],
  schemas: { body: z.object({ ms: z.number().int() }), response: z.object({ slept: z.number() }) },
});
/** Declared, never served: nobody answers it. */
const unserved = internal('unserved', {
  partner: false,
  callers: [],
  schemas: { body: z.object({}), response: z.object({}) },
});

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const namespace = `t${randomBytes(5).toString('hex')}`;
let nc: NatsConnection;
let stop: () => Promise<void>;

let echoed = 0;

beforeAll(async () => {
  nc = await connectBus(NATS_URL, 'bus-test', namespace);
  // The operator's set-up makes the payload stream (services may not): here, the test is the operator.
  await ensurePayloadStream(nc, { maxBytes: 64 * 1024 * 1024, replicas: 1 });
  const running = serveOperations(nc, {
    service,
    version: '9.9.9',
    log: createLogger('bus-test', 'silent'),
    handlers: [
      handle(echo, async ({ body }) => {
        echoed++;
        return { text: body.text };
      }),
      handle(whoAmI, async ({ partnerId }) => ({ partnerId })),
      handle(grow, async ({ body }) => ({ text: 'x'.repeat(body.bytes) })),
      handle(fail, async () => {
        throw AppError.unprocessable('SOMETHING', 'it cannot be done');
      }),
      handle(sleep, async ({ body }) => {
        await new Promise((r) => setTimeout(r, body.ms));
        return { slept: body.ms };
      }),
      handle(crash, async () => {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('secret internal detail');
      }),
    ],
  });
  stop = running.stop;
});

afterAll(async () => {
  await stop?.();
  await nc?.close();
});

describe('bus request-reply', () => {
  it('round-trips a typed request', async () => {
    expect(await callOperation(nc, echo, { body: { text: 'hi' } }, { timeoutMs: 2000 })).toEqual({
      text: 'hi',
    });
  });

  it('carries a reply larger than the server payload limit, as large requests are carried', async () => {
    const limit = nc.info?.max_payload ?? 1024 * 1024;
    const reply = await callOperation(nc, grow, { body: { bytes: 3 * limit } }, { timeoutMs: 5000 });
    expect(reply.text).toHaveLength(3 * limit);
    const text = 'ü'.repeat(limit);
    expect(await callOperation(nc, echo, { body: { text } }, { timeoutMs: 5000 })).toEqual({ text });
  });

  it('stores a large payload encrypted: the stream holds no byte of it in clear', async () => {
    const marker = `clear-${randomUUID()}`;
    const limit = nc.info?.max_payload ?? 1024 * 1024;
    const before = (await (await jetstreamManager(nc)).streams.info(PAYLOAD_STREAM)).state.last_seq;
    const text = marker.repeat(Math.ceil((2 * limit) / marker.length));
    expect(await callOperation(nc, echo, { body: { text } }, { timeoutMs: 5000 })).toEqual({ text });
    const jsm = await jetstreamManager(nc);
    const after = (await jsm.streams.info(PAYLOAD_STREAM)).state.last_seq;
    expect(after).toBeGreaterThan(before);
    for (let seq = before + 1; seq <= after; seq++) {
      const m = await jsm.streams.getMessage(PAYLOAD_STREAM, { seq }).catch(() => undefined);
      expect(Buffer.from(m?.data ?? []).includes(marker)).toBe(false);
    }
  });

  it('runs no handler for a message without a reply subject', async () => {
    const before = echoed;
    nc.publish(namesOf(nc).subject(echo.subject), JSON.stringify({ body: { text: 'no reply' } }));
    // A request after it, on the same connection, is handled after it.
    await callOperation(nc, echo, { body: { text: 'hi' } }, { timeoutMs: 2000 });
    expect(echoed).toBe(before + 1);
  });

  it('validates at the service edge', async () => {
    await expect(
      callOperation(nc, echo, { body: {} as { text: string } }, { timeoutMs: 2000 }),
    ).rejects.toMatchObject({
      status: 400,
      details: { error: 'text is required' },
    });
  });

  it('validates a large request at the service edge too, naming the field', async () => {
    const body = { text: 7, padding: 'x'.repeat(2 * 1024 * 1024) } as unknown as { text: string };
    await expect(callOperation(nc, echo, { body }, { timeoutMs: 5000 })).rejects.toMatchObject({
      status: 400,
      details: { error: 'text must be a string' },
    });
  });

  it('refuses an operation that needs a partner without one, and hands it over lower-cased', async () => {
    const anonymous = { body: {} } as unknown as { partnerId: string; body: Record<string, never> };
    await expect(callOperation(nc, whoAmI, anonymous, { timeoutMs: 2000 })).rejects.toMatchObject({
      status: 401,
      details: { appErrorCode: 'UNAUTHORIZED', error: "whoAmI requires the calling partner's partnerId" },
    });
    await expect(
      callOperation(nc, whoAmI, { partnerId: 'not-a-partner', body: {} }, { timeoutMs: 2000 }),
    ).rejects.toMatchObject({ status: 401 });
    const partnerId = randomUUID();
    expect(
      await callOperation(nc, whoAmI, { partnerId: partnerId.toUpperCase(), body: {} }, { timeoutMs: 2000 }),
    ).toEqual({ partnerId });
  });

  it('carries an AppError across with its status and code', async () => {
    await expect(callOperation(nc, fail, { body: {} }, { timeoutMs: 2000 })).rejects.toMatchObject({
      status: 422,
      details: { appErrorCode: 'SOMETHING', error: 'it cannot be done' },
    });
  });

  it('replies to a rejected async handler with a 500 that reveals nothing', async () => {
    const err = await callOperation(nc, crash, { body: {} }, { timeoutMs: 2000 }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(500);
    expect(JSON.stringify(err.details)).not.toContain('secret');
  });

  it('answers no responders with 503, no reply in time with 504, and each reply to its own request', async () => {
    await expect(callOperation(nc, unserved, { body: {} }, { timeoutMs: 2000 })).rejects.toMatchObject({
      status: 503,
      details: { error: `${service} service is unavailable` },
    });
    await expect(callOperation(nc, sleep, { body: { ms: 300 } }, { timeoutMs: 50 })).rejects.toMatchObject({
      status: 504,
      details: { error: `${service} service did not answer in time` },
    });
    // Replies arrive in another order than the requests went out; each finds its own caller.
    const delays = [40, 0, 25, 5, 30, 10];
    const replies = await Promise.all(
      delays.map((ms) => callOperation(nc, sleep, { body: { ms } }, { timeoutMs: 2000 })),
    );
    expect(replies.map((r) => r.slept)).toEqual(delays);
  });

  it('answers every request in flight before its stop resolves', async () => {
    const other = `bustest${randomUUID().slice(0, 8)}` as 'identity';
    const nap = operationsOf(other).internal('nap', {
      partner: false,
      callers: [],
      schemas: { body: z.object({ ms: z.number().int() }), response: z.object({ slept: z.number() }) },
    });
    const serviceNc = await connectBus(NATS_URL, 'bus-test-stop', namespace);
    let arrived = 0;
    const running = serveOperations(serviceNc, {
      service: other,
      version: '1.0.0',
      log: createLogger('bus-test', 'silent'),
      handlers: [
        handle(nap, async ({ body }) => {
          arrived += 1;
          await new Promise((r) => setTimeout(r, body.ms));
          return { slept: body.ms };
        }),
      ],
    });
    // The service's subscription reaches the server before any request does, or a request finds no responder.
    await serviceNc.flush();
    const delays = [5, 150, 300];
    const calls = delays.map((ms) => callOperation(nc, nap, { body: { ms } }, { timeoutMs: 2000 }));
    await expect.poll(() => arrived).toBe(delays.length);
    await running.stop();
    // Closed at once, not drained: a reply not yet sent would be lost.
    await serviceNc.close();
    expect((await Promise.all(calls)).map((r) => r.slept)).toEqual(delays);
  });

  it('answers the NATS micro protocol: PING, INFO and STATS', async () => {
    const replicas = await pingService(nc, service);
    expect(replicas).toHaveLength(1);
    expect(replicas[0]).toMatchObject({ name: service, version: '9.9.9' });
    const info = JSON.parse(
      new TextDecoder().decode(
        (await nc.request(`$SRV.INFO.${namesOf(nc).micro(service)}`, undefined, { timeout: 1000 })).data,
      ),
    );
    expect(info.type).toBe('io.nats.micro.v1.info_response');
    expect(info.endpoints.map((e: { subject: string }) => e.subject)).toContain(
      namesOf(nc).subject(echo.subject),
    );
    expect(info.endpoints[0].queue_group).toBe(service);
    const stats = JSON.parse(
      new TextDecoder().decode(
        (await nc.request(`$SRV.STATS.${namesOf(nc).micro(service)}`, undefined, { timeout: 1000 })).data,
      ),
    );
    const crashStats = stats.endpoints.find((e: { name: string }) => e.name === 'crash');
    expect(crashStats.num_requests).toBeGreaterThanOrEqual(1);
    expect(crashStats.num_errors).toBeGreaterThanOrEqual(1);
  });
});
