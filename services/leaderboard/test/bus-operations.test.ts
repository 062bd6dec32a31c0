import { randomUUID } from 'node:crypto';
import { namesOf } from '@coin/bus';
import { EVENT_SUBJECTS, leaderboard, type TransferCompletedEvent } from '@coin/contracts';
import { eventually, type ServiceAlone, startServiceAlone } from '@coin/testing';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLeaderboard } from '../src/service.ts';

// The leaderboard alone: fed the wallet's transfer events on the stream (its public input), read
// over its bus subjects (its public output).
let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('leaderboard', startLeaderboard);
});

afterAll(async () => {
  await svc?.stop();
});

async function credit(partnerId: string, userId: string, coins: string) {
  const event: TransferCompletedEvent = {
    eventId: randomUUID(),
    partnerId,
    ledgerEntryId: randomUUID(),
    userId,
    transactionType: 'partner_user_transfer',
    debitOrCredit: 'CR',
    coins,
    createdAt: new Date().toISOString(),
  };
  const subject = namesOf(svc.nc).event(EVENT_SUBJECTS.transferCompleted);
  await jetstream(svc.nc).publish(subject, JSON.stringify(event), { msgID: event.eventId });
}

describe('leaderboard over the bus', () => {
  it('answers ping without touching Redis or Postgres', async () => {
    const pong = await svc.call(leaderboard.ping, { partnerId: randomUUID() });
    expect(pong.service).toBe('leaderboard');
  });

  it("shows a new partner's boards empty, with no position", async () => {
    const partnerId = randomUUID();
    const coins = await svc.call(leaderboard.coinLeaderboard, {
      partnerId,
      query: { page: 1, limit: 10, type: 'earner', userId: randomUUID() },
    });
    expect(coins).toMatchObject({ data: [], count: '0', userPosition: null, lastpage: 1, nextpage: null });
    const points = await svc.call(leaderboard.pointsLeaderboard, { partnerId, query: { page: 1, take: 10 } });
    expect(points).toMatchObject({ data: [], count: 0, userPosition: null });
  });

  it('ranks credited coins of the month highest first, and finds a user given in upper case', async () => {
    const partnerId = randomUUID();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await credit(partnerId, a, '10.00');
    await credit(partnerId, b, '25.50');
    await credit(partnerId, c, '3.25');
    await credit(partnerId, a, '20.00');
    const query = { page: 1, limit: 10, type: 'earner' as const, userId: b.toUpperCase() };
    const board = await eventually(async () => {
      const r = await svc.call(leaderboard.coinLeaderboard, { partnerId, query });
      return r.data.length === 3 && r.data[0].coins === '30.00' ? r : undefined;
    });
    expect(board.data).toEqual([
      { userId: a, coins: '30.00' },
      { userId: b, coins: '25.50' },
      { userId: c, coins: '3.25' },
    ]);
    expect(board.userPosition).toEqual({ userId: b, amount: '25.50', position: 2 });
    const other = await svc.call(leaderboard.coinLeaderboard, { partnerId: randomUUID(), query });
    expect(other.data).toEqual([]);
  });

  it("treats another partner's points board as one that does not exist", async () => {
    const refused = await svc.refusal(leaderboard.pointsLeaderboard, {
      partnerId: randomUUID(),
      query: { page: 1, take: 10, partnerId: randomUUID() },
    });
    expect(refused.status).toBe(404);
    const own = randomUUID();
    const mine = await svc.call(leaderboard.pointsLeaderboard, {
      partnerId: own,
      query: { page: 1, take: 10, partnerId: own.toUpperCase() },
    });
    expect(mine.data).toEqual([]);
  });
});
