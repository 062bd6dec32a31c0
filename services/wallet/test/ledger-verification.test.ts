import { eventually, freePort, queryDatabase, type Stack, startStack, withDatabase } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/index.ts';
import { startWallet } from '../src/service.ts';

let stack: Stack;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  stack = await startStack({
    services: { wallet: startWallet },
    env: { METRICS_PORT: String(port), WALLET_VERIFY_INTERVAL_MS: '200' },
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** The value of one sample of the wallet's /metrics, by its exact series text. */
async function sample(series: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

describe('periodic ledger verification (wallet /metrics)', () => {
  it('reports clean runs, then the violations of a ledger whose balance disagrees with its postings', async () => {
    await eventually(async () => {
      expect(await sample('coin_ledger_verify_runs_total{outcome="ok"}')).toBeGreaterThan(0);
      expect(await sample('coin_ledger_verify_last_success_timestamp_seconds')).toBeGreaterThan(0);
      expect(await sample('coin_ledger_verify_failures')).toBe(0);
      return true;
    });
    expect(await sample('coin_ledger_verify_runs_total{outcome="violations"}')).toBe(0);

    // A wallet credited without postings: no transfer path can do this, a bad manual fix can.
    await queryDatabase(
      stack.env.WALLET_DATABASE_URL!,
      `INSERT INTO accounts (partner_id, kind, user_id, balance)
       VALUES (gen_random_uuid(), 'user', gen_random_uuid(), 5)`,
    );
    await eventually(async () => {
      expect(await sample('coin_ledger_verify_runs_total{outcome="violations"}')).toBeGreaterThan(0);
      // The partner's accounts no longer sum to zero, and the balance is not its postings' sum.
      expect(await sample('coin_ledger_verify_failures')).toBe(2);
      return true;
    });
  });

  it('finds a posting and an idempotency key that refer to no entry, which no foreign key refuses', async () => {
    const db = stack.env.WALLET_DATABASE_URL!;
    const [account] = await queryDatabase<{ id: string }>(
      db,
      `INSERT INTO accounts (partner_id, kind, user_id) VALUES (gen_random_uuid(), 'user', gen_random_uuid())
       RETURNING id::text`,
    );
    const [posting] = await queryDatabase<{ entry_id: string }>(
      db,
      'INSERT INTO postings (entry_id, account_id, amount) VALUES (gen_random_uuid(), $1, 1) RETURNING entry_id',
      [account.id],
    );
    const [key] = await queryDatabase<{ partner_id: string; entry_id: string }>(
      db,
      `INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id)
       VALUES (gen_random_uuid(), 'manual-fix', 'h', gen_random_uuid()) RETURNING partner_id, entry_id`,
    );

    const { violations } = await withDatabase(db, verifyLedger);
    expect(violations.filter((v) => v.startsWith('every '))).toEqual([
      `every posting refers to a ledger entry and an account: posting of entry ${posting.entry_id} on account ${account.id}: the entry or the account does not exist`,
      `every idempotency key refers to a ledger entry: key "manual-fix" of partner ${key.partner_id} answers entry ${key.entry_id}, which does not exist`,
    ]);
  });

  it('finds a lot spent twice, a spend of no debit, and open lots beyond the wallet', async () => {
    const db = stack.env.WALLET_DATABASE_URL!;
    // A lot of 5 with all 5 remaining, and a spend of 3 of it besides: its coins would be counted twice.
    const [lot] = await queryDatabase<{ id: string; user_id: string }>(
      db,
      `INSERT INTO credit_lots (id, partner_id, user_id, coins, remaining, expires_at, created_at)
       VALUES (gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 5, 5, now() + interval '1 day', now())
       RETURNING id, user_id`,
    );
    await queryDatabase(
      db,
      'INSERT INTO credit_lot_spends (lot_id, entry_id, coins) VALUES ($1, gen_random_uuid(), 3)',
      [lot.id],
    );
    const { violations } = await withDatabase(db, verifyLedger);
    const about = violations.filter((v) => v.includes(lot.id) || v.includes(lot.user_id));
    expect(about.map((v) => v.split(':')[0]).sort()).toEqual([
      "each lot is its credit's coins",
      'no wallet holds less than its open lots',
    ]);
    expect(violations.some((v) => v.startsWith('no debit takes from lots more than its coins'))).toBe(true);
  });
});
