import { randomUUID } from 'node:crypto';
import { MAX_USER_DATA_BYTES } from '@coin/contracts';
import { LARGE_REQUEST_BYTES } from '@coin/contracts/validation-pool';
import { type ApiResponse, eventuallyPasses, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexReady } from './support/leaderboard.ts';
import { onboardWithData } from './support/onboarding.ts';
import { partnerBody, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { createRule, reward } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { TO_USER, transfer } from './support/wallet.ts';

const COIN_BOARD = '/api/v1/coins/partner/ep-leaderboard';
const POINTS_BOARD = '/api/v1/laas/leaderboard/new';
const ONBOARD = '/api/v1/laas/onboard-users';

let stack: Stack;
let partner: RegisteredPartner;
let userId: string;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'rules', 'wallet', 'leaderboard'], {
    AUTH_RATE_LIMIT_MAX: '1000',
  });
  partner = await registerAndLogin(stack.api);
  [userId] = await onboardWithData(stack.api, partner.accessToken, [{ plan: 'gold' }]);
});

afterAll(async () => {
  await stack?.stop();
});

/** The 400 envelope of docs/specification.md ("Errors") whose `error` is exactly `error`. */
function expectInvalid(res: ApiResponse, error: string): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    status: 'failed',
    message: 'invalid data provided',
    data: { errorType: 'invalid', appErrorCode: 'Bad request', error },
  });
}

const NO_CONTROLS = 'must not contain control characters';

describe('a NUL character in stored text answers 400 naming the field, never 500', () => {
  it('in applicationName at registration', async () => {
    const res = await stack.api.post('/api/v1/ufel/partners', partnerBody({ applicationName: 'Shop\u0000' }));
    expectInvalid(res, `applicationName ${NO_CONTROLS}`);
  });

  it("in a rule's name and condition", async () => {
    const rule = { name: 'nul-rule', coinValue: '5', maxNumberOfParticipant: '10', condition: 'ok' };
    expectInvalid(
      await createRule(stack.api, partner.accessToken, { ...rule, name: 'nul\u0000rule' }),
      `name ${NO_CONTROLS}`,
    );
    expectInvalid(
      await createRule(stack.api, partner.accessToken, { ...rule, condition: 'after\u0000login' }),
      `condition ${NO_CONTROLS} other than tab and line breaks`,
    );
  });

  it("in a tier's name and an API key's name", async () => {
    const tier = await stack.api.post(
      '/api/v1/laas/tiers',
      { name: 'gold\u0000', rank: 1 },
      { token: partner.accessToken },
    );
    expectInvalid(tier, `name ${NO_CONTROLS}`);
    const key = await stack.api.post(
      '/api/v1/ufel/partners/api-keys',
      { name: 'ci\u0000' },
      { token: partner.accessToken },
    );
    expectInvalid(key, `name ${NO_CONTROLS}`);
  });

  it("in a transfer's narration", async () => {
    const res = await transfer(stack.api, TO_USER, partner.accessToken, {
      userId,
      coins: 1,
      narration: 'bonus\u0000',
    });
    expectInvalid(res, `narration ${NO_CONTROLS}`);
  });
});

describe('onboard-users refuses userData Postgres cannot store, at once, naming users[i].userData', () => {
  it('with a NUL inside', async () => {
    const users = [
      { userId: randomUUID(), userData: {} },
      { userId: randomUUID(), userData: { note: 'a\u0000b' } },
    ];
    const res = await stack.api.post(ONBOARD, { users }, { token: partner.accessToken });
    expectInvalid(res, 'users[1].userData must not contain NUL characters or unpaired surrogates');
  });

  it(`over ${MAX_USER_DATA_BYTES} bytes`, async () => {
    const users = [{ userId: randomUUID(), userData: { note: 'x'.repeat(MAX_USER_DATA_BYTES) } }];
    const res = await stack.api.post(ONBOARD, { users }, { token: partner.accessToken });
    expectInvalid(
      res,
      `users[0].userData must be at most ${MAX_USER_DATA_BYTES} bytes as JSON (it is ${MAX_USER_DATA_BYTES + 11})`,
    );
  });
});

describe('coins', () => {
  it('refuses amounts below 0.01, with more than two decimals or above the maximum, and moves 0.01 and 10.1', async () => {
    const refused: [number, string][] = [
      [1e-9, 'coins must be at least 0.01'],
      [0.001, 'coins must be at least 0.01'],
      [0, 'coins must be at least 0.01'],
      [-1, 'coins must be at least 0.01'],
      [10.001, 'coins must have at most 2 decimal places'],
      [1e300, 'coins must be at most 1000000000'],
    ];
    for (const [coins, error] of refused) {
      expectInvalid(await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins }), error);
    }
    for (const coins of [0.01, 10.1]) {
      const res = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins });
      expect(res.status).toBe(200);
      expect(res.body.data.coinsLedger.coins).toBe(coins);
    }
  });
});

describe('an upper-case UUID is the same UUID', () => {
  it('rules/reward with an Idempotency-Key answers 200, then replays with isExisting true', async () => {
    const [rewarded] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const rule = { name: 'upper-case', coinValue: '3', maxNumberOfParticipant: '10', condition: '' };
    expect((await createRule(stack.api, partner.accessToken, rule)).status).toBe(200);
    const body = { userId: rewarded.toUpperCase(), ruleName: rule.name };
    const key = { 'idempotency-key': `reward-${randomUUID()}` };
    const first = await reward(stack.api, partner.accessToken, body, key);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ isExisting: false, coinsLedger: { userId: rewarded } });
    const again = await reward(stack.api, partner.accessToken, body, key);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ isExisting: true, coinsLedger: first.body.data.coinsLedger });
  });

  it("gives the coin leaderboard's userPosition from the Redis board", async () => {
    const p = await registerAndLogin(stack.api);
    const [earner] = await onboardWithData(stack.api, p.accessToken, [{}]);
    expect((await transfer(stack.api, TO_USER, p.accessToken, { userId: earner, coins: 42 })).status).toBe(
      200,
    );
    const now = new Date();
    const board = `coins:${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    await eventuallyPasses(async () => {
      const res = await stack.api.get(COIN_BOARD, { token: p.accessToken, query: { type: 'earner' } });
      expect(res.body.data.data).toEqual([{ userId: earner, coins: '42.00' }]);
      expect(await indexReady(stack.env.REDIS_URL!, p.partnerId, board)).toBe(true);
    });
    const res = await stack.api.get(COIN_BOARD, {
      token: p.accessToken,
      query: { type: 'earner', userId: earner.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.userPosition).toEqual({ userId: earner, amount: '42.00', position: 1 });
  });

  it("lets the points leaderboard take the partner's own partnerId in upper case", async () => {
    const res = await stack.api.get(POINTS_BOARD, {
      token: partner.accessToken,
      query: { partnerId: partner.partnerId.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
  });
});

describe('one rule for the whole body', () => {
  it('refuses an unknown field by name', async () => {
    const res = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 1, memo: 'hi' });
    expectInvalid(res, 'memo is not allowed');
    const nested = await stack.api.post(
      ONBOARD,
      { users: [{ userId: randomUUID(), userData: {}, tierId: randomUUID() }] },
      { token: partner.accessToken },
    );
    expectInvalid(nested, 'users[0].tierId is not allowed');
  });

  it('names every wrong field at once', async () => {
    const res = await transfer(stack.api, TO_USER, partner.accessToken, {
      userId: 'nope',
      coins: 0.001,
      narration: 'a\u0000',
      memo: 1,
    });
    expectInvalid(
      res,
      `userId must be a valid GUID; coins must be at least 0.01; narration ${NO_CONTROLS}; memo is not allowed`,
    );
  });
});

describe('a body over 256 KiB, validated on a worker thread, meets the same rules', () => {
  const users = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      userId: randomUUID(),
      userData: { n: i } as Record<string, unknown>,
    }));
  const large = (body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    expect(raw.length).toBeGreaterThan(LARGE_REQUEST_BYTES);
    return stack.api.post(ONBOARD, undefined, { token: partner.accessToken, raw });
  };

  it('names the wrong fields, refuses malformed JSON and __proto__, takes a valid one', async () => {
    const bad = users(8_000);
    bad[7_999]!.userData = { note: 'a\u0000b' };
    expectInvalid(
      await large({ users: bad, memo: 1 }),
      `users[7999].userData must not contain NUL characters or unpaired surrogates; memo is not allowed`,
    );
    const raw = JSON.stringify({ users: users(8_000) });
    const cut = await stack.api.post(ONBOARD, undefined, {
      token: partner.accessToken,
      raw: raw.slice(0, -1),
    });
    expectInvalid(cut, 'body must be valid JSON');
    const poisoned = await stack.api.post(ONBOARD, undefined, {
      token: partner.accessToken,
      raw: `{"__proto__": {"admin": true}, ${raw.slice(1)}`,
    });
    expectInvalid(poisoned, 'body must not contain a __proto__ or constructor.prototype key');
    // A small body is parsed on the gateway's event loop, not in a worker: the same rule, the same answer.
    const small = await stack.api.post(ONBOARD, undefined, {
      token: partner.accessToken,
      raw: '{"users": [{"userId": "x", "constructor": {"prototype": {"admin": true}}}]}',
    });
    expectInvalid(small, 'body must not contain a __proto__ or constructor.prototype key');
    const ok = await large({ users: users(8_000).map((u) => ({ ...u, userId: u.userId.toUpperCase() })) });
    expect(ok.status).toBe(200);
  });
});
