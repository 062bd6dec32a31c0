import type { ApiClient, ApiResponse } from '@coin/testing';

export const TO_USER = '/api/v1/laas/coins/transfer-to-user-wallet';
export const FROM_USER = '/api/v1/laas/coins/transfer-from-user-wallet';
export const HISTORY = '/api/v1/laas/coins/get-user-transactions';
export const BALANCE = '/api/v1/laas/coins/balance';

/** The wire: a transfer as sent, its answer as received (for tests of status codes and headers). */
export function transfer(
  api: ApiClient,
  path: string,
  token: string,
  body: Record<string, unknown>,
  key?: string,
): Promise<ApiResponse> {
  return api.post(path, body, { token, headers: key ? { 'idempotency-key': key } : undefined });
}
