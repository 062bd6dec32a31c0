// The rules suites: identity, onboarding, the wallet and rules, with fast reward retries, and one partner.
import { randomUUID } from 'node:crypto';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './partners.ts';
import { queryRulesDb } from './rewards.ts';
import { stackWith } from './stack.ts';

export let stack: Stack;
export let partner: RegisteredPartner;

export const rulesDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryRulesDb<T>(stack.env.RULES_DATABASE_URL!, sql, params);

export function expectFailure(res: { status: number; body: any }, status: number, appErrorCode: string) {
  expect(res.status).toBe(status);
  expect(res.body.status).toBe('failed');
  expect(res.body.data.appErrorCode).toBe(appErrorCode);
  expect(typeof res.body.data.errorType).toBe('string');
  expect(typeof res.body.data.error).toBe('string');
}

export const uniqueName = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** Registers the set-up and tear-down of the calling test file. */
export function useRulesStack(): void {
  beforeAll(async () => {
    stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules'], {
      AUTH_RATE_LIMIT_MAX: '1000',
      REWARD_RETRY_POLL_MS: '50',
      REWARD_RETRY_BASE_MS: '100',
      REWARD_RETRY_MAX_MS: '400',
      RULES_CALL_TIMEOUT_MS: '2000',
    });
    partner = await registerAndLogin(stack.api);
  });

  afterAll(async () => {
    await stack?.stop();
  });
}
