import { randomUUID } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { EVENT_SUBJECTS, leaderboard } from '@coin/contracts';
import type { ApiClient } from '@coin/testing';
import { jetstream } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import { partnerClient } from './partners.ts';

/** Publishes well-formed events onto the stack's JetStream stream, as wallet, rules and onboarding do. */
export class EventPublisher {
  private readonly nc: NatsConnection;

  private constructor(nc: NatsConnection) {
    this.nc = nc;
  }

  /** On the stack's NATS, in its namespace (`stack.env`). */
  static async connect(env: NodeJS.ProcessEnv): Promise<EventPublisher> {
    return new EventPublisher(await connectBus(env.NATS_URL!, 'test-publisher', env.NATS_NAMESPACE!));
  }

  async publish(subject: string, payload: { eventId: string } & Record<string, unknown>): Promise<void> {
    await jetstream(this.nc).publish(namesOf(this.nc).event(subject), JSON.stringify(payload), {
      msgID: `${payload.eventId}-${randomUUID()}`,
    });
  }

  async credit(
    partnerId: string,
    userId: string,
    coins: string,
    createdAt: string,
    debitOrCredit: 'CR' | 'DE' = 'CR',
  ) {
    const event = {
      eventId: randomUUID(),
      partnerId,
      ledgerEntryId: randomUUID(),
      userId,
      transactionType: debitOrCredit === 'CR' ? 'partner_user_transfer' : 'user_partner_transfer',
      debitOrCredit,
      coins,
      createdAt,
    };
    await this.publish(EVENT_SUBJECTS.transferCompleted, event);
    return event;
  }

  async reward(partnerId: string, userId: string, points: number, rewardedAt: string) {
    const event = {
      eventId: randomUUID(),
      partnerId,
      ruleId: randomUUID(),
      ruleName: 'daily-login',
      userId,
      coins: points.toFixed(2),
      points,
      ledgerEntryId: randomUUID(),
      rewardedAt,
    };
    await this.publish(EVENT_SUBJECTS.ruleRewarded, event);
    return event;
  }

  async onboarded(partnerId: string, userIds: readonly string[]) {
    const at = new Date().toISOString();
    const users = userIds.map((userId, i) => ({
      id: randomUUID(),
      userId,
      userData: { nickname: `player-${i}` },
      tierId: null,
      createdAt: at,
      updatedAt: at,
    }));
    await this.publish(EVENT_SUBJECTS.usersOnboarded, {
      eventId: randomUUID(),
      partnerId,
      requestId: randomUUID(),
      users,
    });
    return users;
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Waits until the gateway no longer serves a board page read before this call (each board's
 * `freshForMs`), so the next read reaches the leaderboard service.
 */
export function boardAnswersExpired(): Promise<void> {
  const ms = Math.max(
    leaderboard.coinLeaderboard.http?.freshForMs ?? 0,
    leaderboard.pointsLeaderboard.http?.freshForMs ?? 0,
  );
  return new Promise((r) => setTimeout(r, ms));
}

/** Every entry of a partner's coin board for a month, through the SDK's pages. */
export function wholeCoinBoard(api: ApiClient, token: string, year: number, month: number) {
  return all(
    partnerClient(api, token).iterate('coinLeaderboard', { type: 'earner', year, month, limit: 100 }),
  );
}

/** Every entry of a partner's points board, through the SDK's pages. */
export function wholePointsBoard(api: ApiClient, token: string) {
  return all(partnerClient(api, token).iterate('pointsLeaderboard', { take: 100 }));
}

/**
 * Simulates losing Redis for one partner: deletes every leaderboard key of that partner (tests
 * share one Redis, so never FLUSHALL; the service handles FLUSHALL the same way, key by key).
 */
export async function forgetPartnerIndex(redisUrl: string, partnerId: string): Promise<number> {
  const redis = new Redis(redisUrl);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `lb:v1:{${partnerId}}:*`, 'COUNT', 1000);
      cursor = next;
      if (found.length) deleted += await redis.del(...found);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** Sums decimal texts exactly, in cents. */
export function sumCoins(amounts: readonly string[]): string {
  let cents = 0n;
  for (const a of amounts) {
    const [whole, fraction = ''] = a.split('.');
    cents += BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  }
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

/**
 * What a rebuild that died right after its swap leaves: a ready board still without a user credited
 * while it ran (its entry taken out here), and that user noted in `pending-swapped`.
 */
export async function leaveRebuildUnfinished(
  redisUrl: string,
  partnerId: string,
  board: string,
  userId: string,
): Promise<void> {
  const redis = new Redis(redisUrl);
  const base = `lb:v1:{${partnerId}}:${board}`;
  try {
    const member = await redis.hget(`${base}:m`, userId);
    if (member === null) throw new Error(`${userId} is not on ${base}`);
    await redis
      .multi()
      .zrem(`${base}:z`, member)
      .hdel(`${base}:m`, userId)
      .sadd(`${base}:pending-swapped`, userId)
      .exec();
  } finally {
    redis.disconnect();
  }
}

/** Whether the Redis index of a partner's board is complete (its `ready` mark is set). */
export async function indexReady(redisUrl: string, partnerId: string, board: string): Promise<boolean> {
  const redis = new Redis(redisUrl);
  try {
    return (await redis.exists(`lb:v1:{${partnerId}}:${board}:ready`)) === 1;
  } finally {
    redis.disconnect();
  }
}
