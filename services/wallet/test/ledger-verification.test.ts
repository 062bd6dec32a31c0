import { eventually, freePort, queryDatabase, type Stack, startStack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
