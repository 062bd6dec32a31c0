import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { partnerClient, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

const REDELIVERIES = 2;
let stack: Stack;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    PARTNER_ACTION_RATE_LIMIT_MAX: String(REDELIVERIES),
    WEBHOOK_RETRY_BASE_MS: '86400000',
    WEBHOOK_RETRY_MAX_MS: '86400000',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** A loopback port nothing listens on (development mode may call loopback). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('outbound calls', () => {
  it('refuses webhook URLs that wrap internal addresses (6to4, Teredo, ::/96, fec0::/10, documentation)', async () => {
    const p = await registerAndLogin(stack.api);
    for (const host of [
      '[2002:a00:1::1]',
      '[2001:0:4136:e378:8000:63bf:f5ff:fffe]',
      '[::a00:1]',
      '[fec0::1]',
      '[2001:db8::1]',
      '192.0.2.10',
    ]) {
      const res = await stack.api.put(
        '/api/v1/ufel/partners/webhook',
        { url: `http://${host}/hook` },
        { token: p.accessToken },
      );
      expect(res.status, host).toBe(400);
      expect(res.body.data.error, host).toMatch(/url must not point to a private/);
    }
  });

  it('shows the partner a failure class, not the raw connect error or its timing; redelivery is limited', async () => {
    const p = await registerAndLogin(stack.api);
    const sdk = partnerClient(stack.api, p);
    const port = await closedPort();
    await setWebhook(stack.api, p, `http://127.0.0.1:${port}/hook`);
    await onboard(stack.api, p, newUsers(1));
    const failed = await eventually(async () => {
      const [d] = (await sdk.listDeliveries({})).data;
      return d?.attemptLog[0]?.finishedAt ? d : undefined;
    });
    const [attempt] = failed.attemptLog;
    expect(attempt.error).toBe('connection_refused');
    expect(failed.lastError).toBe('connection_refused');
    expect(attempt.durationMs).toBeNull();
    expect(attempt.startedAt).toMatch(/\.000Z$/);
    expect(attempt.finishedAt).toMatch(/\.000Z$/);
    const listed = await stack.api.get('/api/v1/laas/webhooks/deliveries', { token: p.accessToken });
    expect(listed.text).not.toContain('ECONNREFUSED');
    expect(listed.text).not.toMatch(/ECONNREFUSED|connect /);

    const retry = () =>
      stack.api.post(`/api/v1/laas/webhooks/deliveries/${failed.id}/retry`, undefined, {
        token: p.accessToken,
      });
    for (let i = 0; i < REDELIVERIES; i++) expect((await retry()).status).toBe(200);
    const refused = await retry();
    expect(refused.status).toBe(429);
    expect(refused.body.data.appErrorCode).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another partner's limit is its own.
    const other = await registerAndLogin(stack.api);
    const none = await stack.api.post(`/api/v1/laas/webhooks/deliveries/${failed.id}/retry`, undefined, {
      token: other.accessToken,
    });
    expect(none.status).toBe(404);
  });
});
