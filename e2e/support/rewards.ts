import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiResponse } from '@coin/testing';
import pg from 'pg';

/** Onboards `count` new users for the partner and waits until every one of them is stored. */
export async function onboardUsers(api: ApiClient, token: string, count: number): Promise<string[]> {
  const userIds = Array.from({ length: count }, () => randomUUID());
  const res = await api.post(
    '/api/v1/laas/onboard-users',
    { users: userIds.map((userId, i) => ({ userId, userData: { n: i } })) },
    { token },
  );
  if (res.status !== 200) throw new Error(`onboard-users failed: ${res.status} ${res.text}`);
  const deadline = Date.now() + 15_000;
  for (const userId of userIds) {
    for (;;) {
      const got = await api.get(`/api/v1/laas/users/${userId}`, { token });
      if (got.status === 200) break;
      if (Date.now() > deadline) throw new Error(`user ${userId} was not onboarded in time`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return userIds;
}

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
  body: { userId: string; ruleName: string },
  headers?: Record<string, string>,
): Promise<ApiResponse> {
  return api.post('/api/v1/laas/rules/reward', body, { token, headers });
}

/** The user's ledger entries as the wallet lists them (newest first). */
export async function userLedger(api: ApiClient, token: string, userId: string): Promise<any[]> {
  const res = await api.get('/api/v1/laas/coins/get-user-transactions', {
    token,
    query: { userId, limit: 100 },
  });
  if (res.status !== 200) throw new Error(`history failed: ${res.status} ${res.text}`);
  return res.body.data.data;
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
