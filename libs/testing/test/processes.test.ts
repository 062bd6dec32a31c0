import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dropStream,
  freePort,
  isolatedDatabases,
  type ServiceProcess,
  setUpTestBus,
  spawnService,
} from '../src/index.ts';

const dbs = isolatedDatabases(['identity']);
const env = {
  ...process.env,
  ...dbs.env,
  NATS_NAMESPACE: `t${randomBytes(5).toString('hex')}`,
  LOG_LEVEL: 'silent',
};
const sockets: Socket[] = [];
let silent: Server | undefined;
let started: ServiceProcess | undefined;

afterAll(async () => {
  await started?.stop();
  for (const s of sockets) s.destroy();
  silent?.close();
  await dropStream(env);
  await dbs.drop();
});

describe('spawnService', () => {
  it('waits for its own process: another replica starting meanwhile does not make a stuck one ready (chaos seed 201)', async () => {
    await setUpTestBus(env);
    // A "database" that accepts connections and never answers: a replica pointed at it stays starting.
    silent = createServer((socket) => void sockets.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent!.listen(port, '127.0.0.1', resolve));
    const stuck = spawnService(
      'identity',
      { ...env, IDENTITY_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nothing` },
      20_000,
    );
    started = await spawnService('identity', env, 60_000);
    await expect(stuck).rejects.toThrow('identity was not ready within 20000 ms');
  }, 90_000);

  it('freePort never hands out the same port twice, though the kernel reuses a port just closed', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 2000; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
