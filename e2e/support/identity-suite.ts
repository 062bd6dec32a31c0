import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import { stackWith } from './stack.ts';

export let stack: Stack;

export function expectFailure(
  res: { status: number; body: any },
  status: number,
  appErrorCode: string,
  error?: string,
) {
  expect(res.status).toBe(status);
  expect(res.body.status).toBe('failed');
  expect(typeof res.body.message).toBe('string');
  expect(res.body.data.appErrorCode).toBe(appErrorCode);
  expect(typeof res.body.data.errorType).toBe('string');
  if (error !== undefined) expect(res.body.data.error).toBe(error);
}

/** Registers the set-up and tear-down of the calling test file. */
export function useIdentityStack(): void {
  beforeAll(async () => {
    stack = await stackWith(['identity'], { API_KEY_CACHE_MS: '0', AUTH_RATE_LIMIT_MAX: '1000' });
  });

  afterAll(async () => {
    await stack?.stop();
  });
}
