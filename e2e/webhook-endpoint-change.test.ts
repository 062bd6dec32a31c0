import { type Stack, startWebhookReceiver, verifySignature, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, newUsers, onboard } from './support/onboarding.ts';
import { registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  // The partner cache keeps its production default (30 s): only identity's hint can make the
  // retry below reach the new URL with the new secret.
  stack = await stackWith(['identity', 'onboarding', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_MAX_ATTEMPTS: '1',
  });
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await stack?.stop();
});

describe('webhook URL or secret changed', () => {
  it('a retry right after fixing the URL goes to the new URL, signed with the rotated secret', async () => {
    const broken = await startWebhookReceiver();
    const fixed = await startWebhookReceiver();
    receivers.push(broken, fixed);
    broken.respondWith(() => 500);
    const p = await registerAndLogin(stack.api);
    const auth = { token: p.accessToken };
    await stack.api.put('/api/v1/ufel/partners/webhook', { url: broken.url }, auth);
    await onboard(stack.api, p, newUsers(1));
    await broken.waitFor(1);
    const failed = await eventually(async () => {
      const res = await stack.api.get('/api/v1/laas/webhooks/deliveries', {
        ...auth,
        query: { status: 'failed' },
      });
      return res.body.data.data[0];
    });

    const set = await stack.api.put(
      '/api/v1/ufel/partners/webhook',
      { url: fixed.url, rotateSecret: true },
      auth,
    );
    expect(set.status).toBe(200);
    const retry = await stack.api.post(
      `/api/v1/laas/webhooks/deliveries/${failed.id}/retry`,
      undefined,
      auth,
    );
    expect(retry.status).toBe(200);
    const [call] = await fixed.waitFor(1, 5_000);
    expect(verifySignature(set.body.data.secret, call.headers, call.body)).toBe(true);
    expect(call.headers['webhook-id']).toBe(failed.id);
    expect(broken.received).toHaveLength(1);
  });
});
