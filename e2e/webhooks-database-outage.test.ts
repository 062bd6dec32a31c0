import {
  databaseOutage,
  eventually,
  type Stack,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { partnerClient, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

/**
 * The webhooks service's database refuses connections for three minutes (longer than the old
 * consumer's 10 deliveries, about 80 s, lasted) while partners keep onboarding users: every
 * USER_ONBOARDING of that window reaches the partner once the database is back, exactly once.
 */

const OUTAGE_MS = 180_000;
const REQUEST_EVERY_MS = 15_000;

let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const requestIds = () => receiver.received.map((h) => h.json?.requestId as string);

describe('webhooks database outage', () => {
  it('delivers every USER_ONBOARDING of a 3-minute outage once the database is back, each once', async () => {
    const p = await registerAndLogin(stack.api);
    await setWebhook(stack.api, p, receiver.url);
    await onboard(stack.api, p, newUsers(2));
    await receiver.waitFor(1);
    // Delivery is at least once: cut off before it records the partner's 200, the first webhook would
    // rightly be sent again. The outage starts once it is recorded, so every webhook counted below
    // belongs to the window.
    const sdk = partnerClient(stack.api, p);
    await eventually(async () =>
      (await sdk.listDeliveries({ status: 'delivered' })).data.length === 1 ? true : undefined,
    );

    let duringOutage = 0;
    const outage = await databaseOutage(stack.env.WEBHOOKS_DATABASE_URL!);
    const began = Date.now();
    try {
      while (Date.now() - began < OUTAGE_MS) {
        await onboard(stack.api, p, newUsers(3));
        duringOutage += 1;
        await new Promise((r) => setTimeout(r, REQUEST_EVERY_MS));
      }
      // Nothing can be stored, so nothing is sent while the database is away.
      expect(receiver.received).toHaveLength(1);
    } finally {
      await outage.end();
    }
    expect(duringOutage).toBeGreaterThanOrEqual(OUTAGE_MS / REQUEST_EVERY_MS);

    // The partner answers 200: one call per request, each request's own id.
    await receiver.waitFor(1 + duringOutage, 150_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(receiver.received).toHaveLength(1 + duringOutage);
    expect(new Set(requestIds()).size).toBe(1 + duringOutage);
    expect(receiver.received.every((h) => h.json?.event === 'USER_ONBOARDING')).toBe(true);
  }, 420_000);
});
