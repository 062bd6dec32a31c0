import { randomBytes } from 'node:crypto';
import { createLogger } from '@coin/telemetry';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { awaitReplicas, connectBus, type NatsConnection, serveOperations } from '../src/index.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const namespace = `t${randomBytes(5).toString('hex')}`;
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connectBus(NATS_URL, 'discovery-test', namespace);
});

afterAll(async () => {
  await nc?.close();
});

describe('awaitReplicas', () => {
  it('while nothing serves, asks once per interval, not as fast as the server answers "no responders"', async () => {
    const rounds = vi.spyOn(nc, 'requestMany');
    const started = Date.now();
    try {
      expect(await awaitReplicas(nc, 'nobody', { timeoutMs: 600, intervalMs: 100 })).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
      expect(rounds.mock.calls.length).toBeGreaterThanOrEqual(5);
      expect(rounds.mock.calls.length).toBeLessThanOrEqual(8);
    } finally {
      rounds.mockRestore();
    }
  });

  it('answers true once as many replicas as asked for answer PING', async () => {
    const service = `disc${randomBytes(4).toString('hex')}` as 'identity';
    const replicas = await Promise.all(
      [1, 2].map(async (n) => {
        const conn = await connectBus(NATS_URL, `discovery-replica-${n}`, namespace);
        return {
          conn,
          running: serveOperations(conn, {
            service,
            version: '1.0.0',
            log: createLogger('t', 'silent'),
            handlers: [],
          }),
        };
      }),
    );
    try {
      expect(await awaitReplicas(nc, service, { replicas: 2, timeoutMs: 2000, intervalMs: 100 })).toBe(true);
      await replicas[1].running.stop();
      expect(await awaitReplicas(nc, service, { replicas: 2, timeoutMs: 300, intervalMs: 100 })).toBe(false);
      expect(await awaitReplicas(nc, service, { timeoutMs: 300, intervalMs: 100 })).toBe(true);
    } finally {
      for (const { conn, running } of replicas) {
        await running.stop();
        await conn.close();
      }
    }
  });
});
