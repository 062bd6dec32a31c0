import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { callOperation } from '@coin/bus';
import { wallet } from '@coin/contracts';
import { eventually, queryDatabase } from '@coin/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { onboardWithData } from './support/onboarding.ts';
import { partnerClient } from './support/partners.ts';
import { BALANCE, FROM_USER, TO_USER, transfer } from './support/wallet.ts';
import { nc, other, partner, stack, useWalletStack, walletDb } from './support/wallet-suite.ts';

useWalletStack();

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
  });
});
