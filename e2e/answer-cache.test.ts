import { randomUUID } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { leaderboard, type Operation } from '@coin/contracts';
import { eventuallyPasses, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventPublisher } from './support/leaderboard.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

const COIN_BOARD = '/api/v1/coins/partner/ep-leaderboard';
const POINTS_BOARD = '/api/v1/laas/leaderboard/new';
const MARCH_2024 = { type: 'earner', year: 2024, month: 3 };

let stack: Stack;
let events: EventPublisher;
let observer: NatsConnection;

beforeAll(async () => {
  stack = await stackWith(['identity', 'leaderboard'], { AUTH_RATE_LIMIT_MAX: '1000' });
  events = await EventPublisher.connect(stack.env);
  observer = await connectBus(stack.env.NATS_URL!, 'test-observer', stack.env.NATS_NAMESPACE!);
});

afterAll(async () => {
  await observer?.drain();
  await events?.close();
  await stack?.stop();
});

/**
 * Counts the gateway's bus requests for `op` while `work` runs: a plain subscriber gets a copy of
 * every request the service's queue group answers.
 */
async function busRequestsDuring(op: Operation, work: () => Promise<unknown>): Promise<number> {
  let seen = 0;
  const sub = observer.subscribe(namesOf(observer).subject(op.subject), {
    callback: () => {
      seen++;
    },
  });
  await observer.flush();
  try {
    await work();
    // The server queued each request's copy here as it routed the request; the flush's PONG follows them.
    await observer.flush();
    return seen;
  } finally {
    sub.unsubscribe();
  }
}

function coinBoard(p: RegisteredPartner, query: Record<string, string | number> = {}) {
  return stack.api.get(COIN_BOARD, { token: p.accessToken, query: { ...MARCH_2024, ...query } });
}

async function scrape(): Promise<string> {
  const res = await fetch(`${stack.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series of the cache counter, 0 when it is not there yet. */
function cacheReads(text: string, operation: string, result: string): number {
  const series = `coin_gateway_answer_cache_reads_total{operation="${operation}",result="${result}"}`;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('board answers served from the gateway cache', () => {
  it('gives each partner its own board on the same path', async () => {
    const [a, b] = await Promise.all([registerAndLogin(stack.api), registerAndLogin(stack.api)]);
    const [userA, userB] = [randomUUID(), randomUUID()];
    await events.credit(a.partnerId, userA, '10', '2024-03-10T00:00:00.000Z');
    await events.credit(b.partnerId, userB, '20', '2024-03-10T00:00:00.000Z');
    await eventuallyPasses(async () => {
      const [boardA, boardB] = await Promise.all([coinBoard(a), coinBoard(b)]);
      expect(boardA.body.data.data).toEqual([{ userId: userA, coins: '10.00' }]);
      expect(boardB.body.data.data).toEqual([{ userId: userB, coins: '20.00' }]);
    });
  });

  it('shows a credit within freshForMs and the consumer lag of it', async () => {
    const p = await registerAndLogin(stack.api);
    const user = randomUUID();
    // The page is cached empty first: the credit must still show once that answer is too old.
    expect((await coinBoard(p)).body.data.data).toEqual([]);
    await events.credit(p.partnerId, user, '3.5', '2024-03-11T00:00:00.000Z');
    await eventuallyPasses(async () => {
      expect((await coinBoard(p)).body.data.data).toEqual([{ userId: user, coins: '3.50' }]);
    }, 5000);
  });

  it('makes one bus request for 50 concurrent reads of one page, whatever order its query is in', async () => {
    const p = await registerAndLogin(stack.api);
    // Another page first, so the token is verified before the burst and the reads arrive together.
    expect((await coinBoard(p, { page: 2 })).status).toBe(200);
    const before = await scrape();
    let answers: Awaited<ReturnType<typeof coinBoard>>[] = [];
    const requests = await busRequestsDuring(leaderboard.coinLeaderboard, async () => {
      answers = await Promise.all(Array.from({ length: 50 }, () => coinBoard(p, { page: 1, limit: 10 })));
    });
    expect(requests).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    const after = await scrape();
    const delta = (result: string) =>
      cacheReads(after, 'coinLeaderboard', result) - cacheReads(before, 'coinLeaderboard', result);
    expect(delta('miss')).toBe(1);
    expect(delta('hit') + delta('coalesced')).toBe(49);

    // The same validated query, written otherwise: no new request while the answer is fresh.
    const reordered = await busRequestsDuring(leaderboard.coinLeaderboard, () =>
      stack.api.get(`${COIN_BOARD}?limit=10&month=3&year=2024&type=earner&page=1`, {
        token: p.accessToken,
      }),
    );
    expect(reordered).toBe(0);
  });

  it('answers a bad token 401 and a bad query 400 on a cached page, and keeps no error', async () => {
    const p = await registerAndLogin(stack.api);
    const other = await registerAndLogin(stack.api);
    expect((await coinBoard(p)).status).toBe(200);
    const refused = await busRequestsDuring(leaderboard.coinLeaderboard, async () => {
      const noToken = await stack.api.get(COIN_BOARD, { query: MARCH_2024 });
      expect(noToken.status).toBe(401);
      const badToken = await stack.api.get(COIN_BOARD, { token: 'not-a-token', query: MARCH_2024 });
      expect(badToken.status).toBe(401);
      const badQuery = await coinBoard(p, { limit: 1000 });
      expect(badQuery.status).toBe(400);
      expect(badQuery.body.data.error).toBe('limit must be at most 100');
    });
    expect(refused).toBe(0);

    // The service's refusal (another partner's points board) is asked again each time.
    const notFound = await busRequestsDuring(leaderboard.pointsLeaderboard, async () => {
      for (let i = 0; i < 2; i++) {
        const res = await stack.api.get(POINTS_BOARD, {
          token: p.accessToken,
          query: { partnerId: other.partnerId },
        });
        expect(res.status).toBe(404);
      }
    });
    expect(notFound).toBe(2);
  });
});
