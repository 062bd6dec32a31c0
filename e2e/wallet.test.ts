import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { callOperation, connectBus, type NatsConnection } from '@coin/bus';
import { wallet } from '@coin/contracts';
import { eventually, queryDatabase, type Stack } from '@coin/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardWithData } from './support/onboarding.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';
import { BALANCE, FROM_USER, HISTORY, TO_USER, transfer } from './support/wallet.ts';

// Long enough for the local details server on a loaded CI machine; the `slow` test waits it out.
const DETAILS_TIMEOUT_MS = 1000;
let stack: Stack;
let nc: NatsConnection;
let partner: RegisteredPartner;
let other: RegisteredPartner;
let detailsServer: Server;
let detailsCalls = 0;

const ENTRY_KEYS = [
  'id',
  'userId',
  'debitOrCredit',
  'coins',
  'claimed',
  'transactionType',
  'narration',
  'from',
  'to',
  'plan',
  'paidWithGiftCard',
  'giftCardLedger',
  'laas',
  'charge',
  'refunded',
  'createdAt',
  'updatedAt',
  'balanceAfter',
].sort();
const TRANSFER_KEYS = [...ENTRY_KEYS, 'reversed', 'status', 'token'].sort();
const PARTY_KEYS = ['id', 'fullname_businessName', 'email', 'tag', 'userId'].sort();
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const walletDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryDatabase<T>(stack.env.WALLET_DATABASE_URL!, sql, params);

beforeAll(async () => {
  // The partner's user-details endpoint: `tag=slow` never answers, `tag=grace` answers with details.
  detailsServer = createServer((req, res) => {
    detailsCalls += 1;
    const tag = new URL(req.url ?? '/', 'http://x').searchParams.get('tag');
    if (tag === 'slow') return;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({ data: { id: 'x', fullname: 'Grace Hopper', tag, email: 'grace@partner.example' } }),
    );
  });
  await new Promise<void>((r) => detailsServer.listen(0, '127.0.0.1', r));
  const { port } = detailsServer.address() as { port: number };
  stack = await stackWith(['identity', 'onboarding', 'wallet'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WALLET_USER_DETAILS_TIMEOUT_MS: String(DETAILS_TIMEOUT_MS),
  });
  nc = await connectBus(stack.env.NATS_URL!, 'wallet-test', stack.env.NATS_NAMESPACE!);
  partner = await registerAndLogin(stack.api, {
    partnerName: 'Acme Rewards',
    userDetailsUrl: `http://127.0.0.1:${port}/users`,
  });
  other = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await nc?.close();
  await stack?.stop();
  detailsServer?.close();
});

describe('transfers', () => {
  it('partner → user returns the specification ledger entry, field by field', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [
      { fullname: 'Ada Lovelace', email: 'ada@example.com', tag: 'ada' },
    ]);
    const res = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 12.5 });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toBe('coin transferred');
    expect(res.body.data.isExisting).toBe(false);
    const e = res.body.data.coinsLedger;
    expect(Object.keys(e).sort()).toEqual(TRANSFER_KEYS);
    expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(e).toMatchObject({
      userId,
      debitOrCredit: 'CR',
      coins: 12.5,
      claimed: false,
      transactionType: 'partner_user_transfer',
      narration: 'transfer from Acme Rewards',
      plan: {},
      paidWithGiftCard: false,
      giftCardLedger: {},
      laas: true,
      charge: 0,
      refunded: false,
      reversed: false,
      status: 'Success',
      token: null,
    });
    expect(e.createdAt).toMatch(ISO);
    expect(e.updatedAt).toMatch(ISO);
    expect(Object.keys(e.from).sort()).toEqual(PARTY_KEYS);
    expect(e.from).toEqual({
      id: partner.partnerId,
      fullname_businessName: 'Acme Rewards',
      email: partner.email,
      tag: null,
      userId: partner.partnerId,
    });
    // The partner's userDetailsUrl answered for tag "ada" (the details server names everyone Grace).
    expect(e.to).toMatchObject({ fullname_businessName: 'Grace Hopper', tag: 'ada', userId });
    expect(e.to.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('user → partner is a DE entry from the user to the partner; a custom narration is kept', async () => {
    const [userId] = await onboardWithData(stack.api, other.accessToken, [
      { fullname: 'Alan Turing', email: 'alan@example.com' },
    ]);
    await partnerClient(stack.api, other).transferToUser({ userId, coins: 10 });
    const res = await transfer(stack.api, FROM_USER, other.accessToken, {
      userId,
      coins: 3.25,
      narration: 'gift card purchase',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('coin transferred');
    const e = res.body.data.coinsLedger;
    expect(Object.keys(e).sort()).toEqual(TRANSFER_KEYS);
    expect(e).toMatchObject({
      userId,
      debitOrCredit: 'DE',
      coins: 3.25,
      transactionType: 'user_partner_transfer',
      narration: 'gift card purchase',
      status: 'Success',
    });
    expect(e.from).toMatchObject({
      fullname_businessName: 'Alan Turing',
      email: 'alan@example.com',
      tag: null,
      userId,
    });
    expect(e.to).toMatchObject({ id: other.partnerId, fullname_businessName: 'Example Partner', tag: null });
    const balance = await stack.api.get(BALANCE, { token: other.accessToken, query: { userId } });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({
      status: 'success',
      message: 'balance returned',
      data: { userId, coins: 6.75, available: 6.75, pending: 0 },
    });
  });

  it('a partner URL that never answers costs at most its timeout and the transfer still succeeds', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [
      { fullname: 'Slow Poke', email: 'slow@example.com', tag: 'slow' },
    ]);
    const began = Date.now();
    const res = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 1 });
    expect(res.status).toBe(200);
    // The timeout, with room for a loaded machine: a transfer that waited on the URL would take far longer.
    expect(Date.now() - began).toBeLessThan(DETAILS_TIMEOUT_MS + 2000);
    expect(res.body.data.coinsLedger.to).toMatchObject({
      fullname_businessName: 'Slow Poke',
      email: 'slow@example.com',
      tag: 'slow',
    });
  });

  it('refuses an amount with more than 2 decimals, a zero amount and a missing userId', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const cases: [Record<string, unknown>, string][] = [
      [{ userId, coins: 1.005 }, 'coins must have at most 2 decimal places'],
      [{ coins: 1 }, 'userId is required'],
    ];
    for (const [body, error] of cases) {
      const res = await transfer(stack.api, TO_USER, partner.accessToken, body);
      expect(res.status).toBe(400);
      expect(res.body.data).toMatchObject({ appErrorCode: 'Bad request', error });
    }
    const zero = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.data.error).toMatch(/^coins /);
  });

  it('refuses a transfer beyond the balance with 422 INSUFFICIENT_BALANCE and moves nothing', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 5 });
    const res = await transfer(stack.api, FROM_USER, partner.accessToken, { userId, coins: 5.01 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: 'failed',
      data: { errorType: 'unprocessable', appErrorCode: 'INSUFFICIENT_BALANCE' },
    });
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data.coins).toBe(5);
  });

  it('answers 404 for a user the partner has not onboarded, and for another partner’s user', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 2 });
    for (const [token, id] of [
      [partner.accessToken, randomUUID()],
      [other.accessToken, userId],
    ]) {
      for (const path of [TO_USER, FROM_USER]) {
        const res = await transfer(stack.api, path, token, { userId: id, coins: 1 });
        expect(res.status).toBe(404);
        expect(res.body.data.appErrorCode).toBe('NOT_FOUND');
      }
      for (const path of [HISTORY, BALANCE]) {
        const res = await stack.api.get(path, { token, query: { userId: id } });
        expect(res.status).toBe(404);
        expect(res.body.data.appErrorCode).toBe('NOT_FOUND');
      }
    }
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data.coins).toBe(2);
  });

  it('requires a partner token', async () => {
    const res = await stack.api.post(TO_USER, { userId: randomUUID(), coins: 1 });
    expect(res.status).toBe(401);
  });
});

describe('history and balance', () => {
  it('lists entries newest first with the pagination block, without reversed/status/token', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{ fullname: 'Hist' }]);
    const sdk = partnerClient(stack.api, partner);
    for (const coins of [1, 2, 3, 4, 5]) await sdk.transferToUser({ userId, coins });
    await sdk.transferFromUser({ userId, coins: 6 });

    const first = await stack.api.get(HISTORY, {
      token: partner.accessToken,
      query: { userId, page: 1, limit: 4 },
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('transaction history returned');
    const page1 = first.body.data;
    expect(Object.keys(page1).sort()).toEqual(
      ['data', 'count', 'currentpage', 'nextpage', 'prevpage', 'lastpage', 'nextCursor'].sort(),
    );
    expect(page1).toMatchObject({ count: 6, currentpage: 1, nextpage: 2, prevpage: null, lastpage: 2 });
    expect(page1.data.map((e: any) => [e.debitOrCredit, e.coins])).toEqual([
      ['DE', 6],
      ['CR', 5],
      ['CR', 4],
      ['CR', 3],
    ]);
    for (const e of page1.data) expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);

    const second = await stack.api.get(HISTORY, {
      token: partner.accessToken,
      query: { userId, page: 2, limit: 4 },
    });
    expect(second.body.data).toMatchObject({
      count: 6,
      currentpage: 2,
      nextpage: null,
      prevpage: 1,
      nextCursor: null,
    });
    expect(second.body.data.data.map((e: any) => e.coins)).toEqual([2, 1]);

    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data).toEqual({ userId, coins: 9, available: 9, pending: 0 });
  });

  it('an onboarded user without transfers has an empty history and a zero balance', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const history = await stack.api.get(HISTORY, { token: partner.accessToken, query: { userId } });
    expect(history.body.data).toEqual({
      data: [],
      count: 0,
      currentpage: 1,
      nextpage: null,
      prevpage: null,
      lastpage: 1,
      nextCursor: null,
    });
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data).toEqual({ userId, coins: 0, available: 0, pending: 0 });
  });
});

describe('idempotency', () => {
  it('replays the first result with isExisting true, over HTTP and over the bus alike', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const key = `order-${randomUUID()}`;
    const first = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 7 }, key);
    expect(first.status).toBe(200);
    expect(first.body.data.isExisting).toBe(false);
    const again = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 7.0 }, key);
    expect(again.status).toBe(200);
    expect(again.body.data.isExisting).toBe(true);
    expect(again.body.data.coinsLedger).toEqual(first.body.data.coinsLedger);
    const viaBus = await callOperation(
      nc,
      wallet.transferToUser,
      { partnerId: partner.partnerId, body: { userId, coins: 7 }, idempotencyKey: key },
      { timeoutMs: 5000 },
    );
    expect(viaBus).toEqual({ isExisting: true, coinsLedger: first.body.data.coinsLedger });
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data.coins).toBe(7);
    // Without a key every call is a new transfer.
    const plain = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 7 });
    expect(plain.body.data.isExisting).toBe(false);
    expect(plain.body.data.coinsLedger.id).not.toBe(first.body.data.coinsLedger.id);
  });

  it('refuses the same key with another body or direction (422), and keys are scoped to the partner', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const key = `k-${randomUUID()}`;
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 3 }, { idempotencyKey: key });
    for (const [path, body] of [
      [TO_USER, { userId, coins: 4 }],
      [TO_USER, { userId, coins: 3, narration: 'other' }],
      [FROM_USER, { userId, coins: 3 }],
    ] as const) {
      const res = await transfer(stack.api, path, partner.accessToken, body, key);
      expect(res.status).toBe(422);
      expect(res.body.data).toMatchObject({
        errorType: 'unprocessable',
        appErrorCode: 'IDEMPOTENCY_CONFLICT',
      });
    }
    const [otherUser] = await onboardWithData(stack.api, other.accessToken, [{}]);
    const res = await transfer(stack.api, TO_USER, other.accessToken, { userId: otherUser, coins: 9 }, key);
    expect(res.status).toBe(200);
    expect(res.body.data.isExisting).toBe(false);
  });

  it('answers 409 IDEMPOTENCY_IN_PROGRESS while the first request with the key is still running', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 1 });
    // Hold the user's wallet row, so the first transfer waits inside its transaction.
    const blocker = new pg.Client({ connectionString: stack.env.WALLET_DATABASE_URL });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM accounts WHERE user_id = $1 FOR UPDATE`, [userId]);
    const key = `slow-${randomUUID()}`;
    const firstCall = transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 2 }, key);
    // The first transfer is in progress once the wallet waits for the row this test holds.
    await eventually(async () => {
      const [waiting] = await queryDatabase<{ n: number }>(
        stack.env.WALLET_DATABASE_URL!,
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return waiting.n > 0 || undefined;
    }, 10_000);
    const during = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 2 }, key);
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(during.status).toBe(409);
    expect(during.body.data).toMatchObject({
      errorType: 'conflict',
      appErrorCode: 'IDEMPOTENCY_IN_PROGRESS',
    });
    const first = await firstCall;
    expect(first.status).toBe(200);
    expect(first.body.data.isExisting).toBe(false);
    const after = await transfer(stack.api, TO_USER, partner.accessToken, { userId, coins: 2 }, key);
    expect(after.body.data).toEqual({ isExisting: true, coinsLedger: first.body.data.coinsLedger });
  });

  it('refuses an Idempotency-Key longer than 255 characters', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const res = await transfer(
      stack.api,
      TO_USER,
      partner.accessToken,
      { userId, coins: 1 },
      'k'.repeat(256),
    );
    expect(res.status).toBe(400);
  });

  it("refuses a partner's key in the prefix reserved for services' own payments", async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    const res = await transfer(
      stack.api,
      TO_USER,
      partner.accessToken,
      { userId, coins: 1 },
      `internal:rule-reward:${userId}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.data.error).toBe('Idempotency-Key must not start with internal:');
  });
});

describe('concurrency and invariants', () => {
  it('100 concurrent transfers of 1 coin against a balance of 60: exactly 60 succeed, balance 0', async () => {
    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 60 });
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        transfer(stack.api, FROM_USER, partner.accessToken, { userId, coins: 1 }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 422)).toHaveLength(40);
    for (const r of results.filter((x) => x.status === 422))
      expect(r.body.data.appErrorCode).toBe('INSUFFICIENT_BALANCE');
    const balance = await stack.api.get(BALANCE, { token: partner.accessToken, query: { userId } });
    expect(balance.body.data.coins).toBe(0);
    const [{ entries }] = await walletDb(
      `SELECT count(*)::int AS entries FROM ledger_entries WHERE user_id = $1 AND debit_or_credit = 'DE'`,
      [userId],
    );
    expect(entries).toBe(60);
  });

  it('ledger:verify reports a sound ledger, then names a corrupted balance and exits non-zero', async () => {
    const run = (env: NodeJS.ProcessEnv) =>
      promisify(execFile)(process.execPath, ['services/wallet/src/tools/verify-ledger.ts'], { env }).then(
        (r) => ({ code: 0, out: r.stdout }),
        (err) => ({ code: err.code as number, out: String(err.stdout) }),
      );
    const env = { ...process.env, WALLET_DATABASE_URL: stack.env.WALLET_DATABASE_URL };
    const sound = await run(env);
    expect(sound.out).toContain('OK: every partner sums to zero');
    expect(sound.code).toBe(0);

    const [userId] = await onboardWithData(stack.api, partner.accessToken, [{}]);
    await partnerClient(stack.api, partner).transferToUser({ userId, coins: 4 });
    await walletDb(`UPDATE accounts SET balance = balance + 1 WHERE user_id = $1`, [userId]);
    const broken = await run(env);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('VIOLATIONS (2)');
    expect(broken.out).toContain(`partner ${partner.partnerId}: accounts sum to 1.00, not 0`);
    expect(broken.out).toMatch(/account \d+ \(user\): balance 5\.00 but its postings sum to 4\.00/);
    expect(detailsCalls).toBeGreaterThan(0);
  });
});
