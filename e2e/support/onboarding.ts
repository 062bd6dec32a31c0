import { randomUUID } from 'node:crypto';
import { createClient } from '@coin/sdk';
import type { ApiClient } from '@coin/testing';
import type { RegisteredPartner } from './partners.ts';

export function newUsers(n: number, userData: (i: number) => Record<string, unknown> = (i) => ({ n: i })) {
  return Array.from({ length: n }, (_, i) => ({ userId: randomUUID(), userData: userData(i) }));
}

/** Points the partner's webhook at `url` (through the SDK); returns the signing secret. */
export async function setWebhook(api: ApiClient, p: RegisteredPartner, url: string): Promise<string> {
  const sdk = createClient({ baseUrl: api.baseUrl, credentials: { token: () => p.accessToken } });
  return (await sdk.setWebhook({ url })).secret;
}

export async function onboard(api: ApiClient, p: RegisteredPartner, users: unknown[]) {
  const res = await api.post('/api/v1/laas/onboard-users', { users }, { token: p.accessToken });
  if (res.status !== 200) throw new Error(`onboard failed: ${res.status} ${res.text}`);
  return res;
}

export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
