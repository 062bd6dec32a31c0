import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiResponse } from '@coin/testing';

export const TO_USER = '/api/v1/laas/coins/transfer-to-user-wallet';
export const FROM_USER = '/api/v1/laas/coins/transfer-from-user-wallet';
export const HISTORY = '/api/v1/laas/coins/get-user-transactions';
export const BALANCE = '/api/v1/laas/coins/balance';

/** Onboards users with the given userData and waits until each is stored; returns their ids. */
export async function onboardWithData(
  api: ApiClient,
  token: string,
  userData: Record<string, unknown>[],
): Promise<string[]> {
  const users = userData.map((data) => ({ userId: randomUUID(), userData: data }));
  const res = await api.post('/api/v1/laas/onboard-users', { users }, { token });
  if (res.status !== 200) throw new Error(`onboard-users failed: ${res.status} ${res.text}`);
  const deadline = Date.now() + 15_000;
  for (const { userId } of users) {
    while ((await api.get(`/api/v1/laas/users/${userId}`, { token })).status !== 200) {
      if (Date.now() > deadline) throw new Error(`user ${userId} was not onboarded in time`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return users.map((u) => u.userId);
}

export function transfer(
  api: ApiClient,
  path: string,
  token: string,
  body: Record<string, unknown>,
  key?: string,
): Promise<ApiResponse> {
  return api.post(path, body, { token, headers: key ? { 'idempotency-key': key } : undefined });
}
