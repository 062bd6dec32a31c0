import type { ApiClient, ApiResponse } from '@coin/testing';
import pg from 'pg';
import { onboardWithData } from './onboarding.ts';
import { partnerClient } from './partners.ts';

/** Onboards `count` new users for the partner and waits until every one of them is stored. */
export function onboardUsers(api: ApiClient, token: string, count: number): Promise<string[]> {
  return onboardWithData(
    api,
    token,
    Array.from({ length: count }, (_, i) => ({ n: i })),
  );
}

/** The wire: create-rule and reward as sent, their answers as received (for tests of status codes and headers). */
export async function createRule(
  api: ApiClient,
  token: string,
  body: Record<string, unknown>,
): Promise<ApiResponse> {
  return api.post('/api/v1/laas/rules/create-rule', body, { token });
}

export function reward(
  api: ApiClient,
  token: string,
  body: { userId: string; ruleName: string; occurredAt?: string },
  headers?: Record<string, string>,
): Promise<ApiResponse> {
  return api.post('/api/v1/laas/rules/reward', body, { token, headers });
}

/** The user's ledger entries as the wallet lists them (newest first). */
export async function userLedger(api: ApiClient, token: string, userId: string) {
  return (await partnerClient(api, token).getUserTransactions({ userId, limit: 100 })).data;
}

/** Reads the rules service's own database, to show the state the API does not expose. */
export async function queryRulesDb<T = any>(databaseUrl: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
