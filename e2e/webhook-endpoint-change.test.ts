import {
  eventually,
  type Stack,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { partnerClient, registerAndLogin } from './support/partners.ts';
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
    const sdk = partnerClient(stack.api, p);
    await setWebhook(stack.api, p, broken.url);
    await onboard(stack.api, p, newUsers(1));
    await broken.waitFor(1);
    const failed = await eventually(async () => (await sdk.listDeliveries({ status: 'failed' })).data[0]);

    await sdk.setWebhook({ url: fixed.url });
    const { secret } = await sdk.rotateWebhookSecret();
    await sdk.retryDelivery({ id: failed.id });
    const [call] = await fixed.waitFor(1, 5_000);
    expect(verifySignature(secret, call.headers, call.body)).toBe(true);
    expect(call.headers['webhook-id']).toBe(failed.id);
    expect(broken.received).toHaveLength(1);
  });
});
