import { randomUUID } from 'node:crypto';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { type Stack, startStack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { startWebhooks } from '@coin/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, tokenPair, verifyWebhook, WebhookVerificationError } from '../src/index.ts';

let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startStack({
    services: { identity: startIdentity, onboarding: startOnboarding, webhooks: startWebhooks },
    gateway: startGateway,
    env: { WEBHOOK_POLL_MS: '20', WEBHOOK_PARTNER_CACHE_MS: '0' },
  });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** A real USER_ONBOARDING delivery to our receiver, and the partner's signing secret. */
async function realDelivery() {
  const client = createClient({ baseUrl: stack.url });
  const email = `hook-${randomUUID()}@example.com`;
  const password = 'correct horse battery staple';
  await client.registerPartner({
    applicationName: 'Hooks',
    redirectUrl: 'https://p.example/r',
    webRedirectUrl: 'https://p.example/w',
    mobileRedirectUrl: 'p://cb',
    email,
    partnerName: 'Hooks Ltd',
    password,
    confirmPassword: password,
    userDetailsUrl: 'https://p.example/users',
  });
  client.useCredentials(tokenPair((await client.login({ email, password })).tokens));
  const { secret } = await client.setWebhook({ url: receiver.url });
  await client.onboardUsers({ users: [{ userId: randomUUID(), userData: {} }] });
  const [delivery] = await receiver.waitFor(1);
  return { secret: secret!, delivery };
}

describe('verifyWebhook', () => {
  it('accepts a real delivery and returns its event; refuses a changed body, a wrong secret and an old timestamp', async () => {
    const { secret, delivery } = await realDelivery();
    const event = await verifyWebhook(secret, delivery.headers, delivery.body);
    expect(event).toMatchObject({ event: 'USER_ONBOARDING', status: 'success', sequence: 1, failed: [] });
    // The kind narrows the type: a USER_ONBOARDING body has its request's id.
    expect(event.event === 'USER_ONBOARDING' && event.requestId).toEqual(expect.any(String));

    const asFetchHeaders = new Headers(delivery.headers as Record<string, string>);
    expect((await verifyWebhook(secret, asFetchHeaders, delivery.body)).event).toBe('USER_ONBOARDING');

    const tampered = delivery.body.replace('"failed":[]', '"failed":[{"user":"x","reason":"y"}]');
    await expect(verifyWebhook(secret, delivery.headers, tampered)).rejects.toThrow(WebhookVerificationError);
    const otherSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    await expect(verifyWebhook(otherSecret, delivery.headers, delivery.body)).rejects.toThrow(
      /no webhook-signature matches/,
    );
    const sentAt = Number(delivery.headers['webhook-timestamp']);
    await expect(
      verifyWebhook(secret, delivery.headers, delivery.body, { now: sentAt + 301 }),
    ).rejects.toThrow(/too far from now/);
    expect((await verifyWebhook(secret, delivery.headers, delivery.body, { now: sentAt + 299 })).event).toBe(
      'USER_ONBOARDING',
    );
    const { 'webhook-signature': _gone, ...unsigned } = delivery.headers;
    await expect(verifyWebhook(secret, unsigned, delivery.body)).rejects.toThrow(/missing webhook-signature/);
  });
});
