import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@coin/testing';
import type { ChaosOptions } from '../options.ts';
import { accepting, PrivateProcess, postgresBin, postgresUser, type Servers } from '../servers.ts';
import { NatsCluster } from './nats-cluster.ts';
import { pairDirectory } from './postgres-node.ts';
import { PostgresPair } from './postgres-pair.ts';

export interface HaServers {
  postgres: PostgresPair;
  nats: NatsCluster;
  natsServer: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The HA topology on private servers: Postgres as a primary and a standby behind a read-write
 * endpoint, NATS as a 3-node JetStream cluster whose streams the services keep at 3 replicas
 * (EVENTS_STREAM_REPLICAS, as the production overlay sets it), Redis alone as in production's cache.
 */
export async function haServers(opts: ChaosOptions): Promise<Servers> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-ha-'));
  chmodSync(dir, 0o711);
  const user = postgresUser();
  const nats = await NatsCluster.start(dir, opts.natsServer);
  const postgres = await PostgresPair.start({
    dir: pairDirectory(dir, user),
    bin: opts.postgresBin ?? postgresBin(),
    user,
    sync: opts.pgSync,
    detectMs: opts.failoverDetectMs,
  });
  const redisPort = await freePort();
  const redis = new PrivateProcess(
    opts.redisServer,
    [
      ...['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no'],
      ...['--dir', dir],
    ],
    join(dir, 'redis.log'),
  );
  redis.start();
  const env = {
    DATABASE_URL_BASE: postgres.url,
    NATS_URL: nats.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    EVENTS_STREAM_REPLICAS: '3',
  };
  await accepting('redis', env.REDIS_URL);
  return {
    env,
    ha: { postgres, nats, natsServer: opts.natsServer },
    async restart(name, downMs) {
      if (name !== 'redis') throw new Error(`TOPOLOGY=ha restarts only redis, not ${name}`);
      await redis.stop('SIGKILL');
      await sleep(downMs);
      redis.start();
      await accepting('redis', env.REDIS_URL);
    },
    async close() {
      await postgres.close();
      await nats.close();
      await redis.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
