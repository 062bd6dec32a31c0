import { readFileSync } from 'node:fs';
import { connectBus, namesOf } from '@coin/bus';
import { type BaseConfig, natsTls, redisOptions } from '@coin/config';
import { jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';

/**
 * Deletes the event stream (and with it every durable consumer's position): the restored outboxes
 * are the source of every event, and a stream kept from after the backup would hold events the
 * restored databases never wrote. The services recreate it, and their consumers, at start.
 */
export async function deleteEventStream(config: BaseConfig): Promise<boolean> {
  const nc = await connectBus(
    config.NATS_URL,
    'restore',
    config.NATS_NAMESPACE,
    config.NATS_NKEY_SEED,
    natsTls(config),
  );
  try {
    const jsm = await jetstreamManager(nc);
    return await jsm.streams.delete(namesOf(nc).stream).catch(() => false);
  } finally {
    await nc.close();
  }
}

/**
 * Deletes the leaderboard's Redis index (`lb:v1:*`, or the pattern given): it reflects the live
 * standings, not the restored ones. Each board, lacking its `ready` key, is served from Postgres and
 * rebuilt by the leaderboard service at start.
 */
export async function clearLeaderboardIndex(config: BaseConfig, pattern: string): Promise<number> {
  const redis = new Redis(config.REDIS_URL, redisOptions(config, readFileSync));
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
