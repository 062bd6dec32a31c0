import { type Stack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

const HANG_MS = 15_000;

let stack: Stack;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    // Longer than the hang, so a hanging endpoint really holds its attempts for the whole hang.
    WEBHOOK_TIMEOUT_MS: String(HANG_MS + 5_000),
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_CONCURRENCY: '16',
    WEBHOOK_PARTNER_CONCURRENCY: '4',
    ONBOARDING_CHUNK_SIZE: '1000',
    ONBOARDING_CONCURRENCY: '2',
  });
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await stack?.stop();
});

async function partnerWithReceiver(): Promise<{ p: RegisteredPartner; receiver: WebhookReceiver }> {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const p = await registerAndLogin(stack.api);
  await setWebhook(stack.api, p, receiver.url);
  return { p, receiver };
}

describe('fairness between partners', () => {
  it("an endpoint that hangs 15 s delays only its own partner's webhooks", async () => {
    const slow = await partnerWithReceiver();
    slow.receiver.delayWith(() => HANG_MS);
    const fast = await partnerWithReceiver();
    for (let i = 0; i < 6; i++) await onboard(stack.api, slow.p, newUsers(1));
    // The hanging partner holds all the attempts it may have in flight (and has more waiting).
    await slow.receiver.waitFor(4);

    const began = Date.now();
    await onboard(stack.api, fast.p, newUsers(1));
    const [hook] = await fast.receiver.waitFor(1, HANG_MS);
    const tookMs = hook.at - began;
    console.log(`other partner's webhook ${tookMs} ms after its request, beside a ${HANG_MS} ms hang`);
    expect(tookMs).toBeLessThan(HANG_MS / 3);
    expect(slow.receiver.received.length).toBeLessThanOrEqual(4);
  });

  it("a 3-user request is not queued behind another partner's 100,000-user request", async () => {
    const big = await partnerWithReceiver();
    const small = await partnerWithReceiver();
    await onboard(stack.api, big.p, newUsers(100_000));
    const began = Date.now();
    await onboard(stack.api, small.p, newUsers(3));
    const [hook] = await small.receiver.waitFor(1, 20_000);
    console.log(`3-user request's webhook ${hook.at - began} ms after its request`);
    expect(hook.json).toMatchObject({ event: 'USER_ONBOARDING', status: 'success', failed: [] });
    // The big request is still being processed: its webhook has not been sent yet.
    expect(big.receiver.received).toHaveLength(0);
  }, 60_000);
});
