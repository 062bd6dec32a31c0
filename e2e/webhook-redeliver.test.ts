import { eventually, type Stack, startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { partnerClient, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // A day between automatic attempts: none but the first comes while the test runs, so every
  // later attempt is one the partner asked for. Two automatic attempts in all: a redelivery that
  // spent one would fail the delivery.
  stack = await stackWith(['identity', 'onboarding', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_RETRY_BASE_MS: '86400000',
    WEBHOOK_RETRY_MAX_MS: '86400000',
    WEBHOOK_MAX_ATTEMPTS: '2',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('redelivering a pending delivery', () => {
  it('is an extra attempt: it spends no automatic attempt and leaves the next one where it was', async () => {
    receiver.respondWith((n) => (n < 2 ? 500 : 200));
    const p = await registerAndLogin(stack.api);
    const sdk = partnerClient(stack.api, p);
    await setWebhook(stack.api, p, receiver.url);
    await onboard(stack.api, p, newUsers(1));
    // Settled: every attempt has its outcome and the delivery its next time (the run's last write).
    const settled = (attempts: number, nextAttemptAt?: string | null) =>
      eventually(async () => {
        const [d] = (await sdk.listDeliveries({})).data;
        const done = d?.attemptLog.length === attempts && d.attemptLog.every((a) => a.finishedAt);
        const due = nextAttemptAt === undefined ? d?.lastError !== null : d?.nextAttemptAt === nextAttemptAt;
        return done && due ? d : undefined;
      });
    const scheduled = await settled(1);
    expect(scheduled).toMatchObject({ status: 'pending', attemptLog: [{ statusCode: 500, manual: false }] });
    expect(scheduled.nextAttemptAt).not.toBeNull();

    await sdk.retryDelivery({ id: scheduled.id });
    // Due again exactly when it was before (a pushed schedule never comes back to it: a timeout).
    const afterManual = await settled(2, scheduled.nextAttemptAt);
    expect(afterManual).toMatchObject({
      status: 'pending',
      lastStatusCode: 500,
      attemptLog: [{ manual: false }, { statusCode: 500, manual: true }],
    });

    await sdk.retryDelivery({ id: scheduled.id });
    const [hook] = (await receiver.waitFor(3)).slice(2);
    expect(hook.headers['webhook-id']).toBe(scheduled.id);
    const delivered = await eventually(async () => {
      const [d] = (await sdk.listDeliveries({ status: 'delivered' })).data;
      return d;
    });
    expect(delivered).toMatchObject({ id: scheduled.id, attempts: 3, nextAttemptAt: null });
    expect(delivered.attemptLog.map((a) => [a.statusCode, a.manual])).toEqual([
      [500, false],
      [500, true],
      [200, true],
    ]);
    expect(receiver.received).toHaveLength(3);
  });

  it('adds nothing while an attempt is under way: that attempt is the answer', async () => {
    const slow = await startWebhookReceiver();
    try {
      // The first call is answered only once the partner has asked for a redelivery meanwhile.
      let release = () => {};
      const asked = new Promise<void>((resolve) => {
        release = resolve;
      });
      slow.respondWith(async (n) => {
        if (n === 0) await asked;
        return 500;
      });
      const p = await registerAndLogin(stack.api);
      const sdk = partnerClient(stack.api, p);
      await setWebhook(stack.api, p, slow.url);
      await onboard(stack.api, p, newUsers(1));
      await slow.waitFor(1);
      const [inFlight] = (await sdk.listDeliveries({})).data;
      expect(inFlight.attemptLog).toMatchObject([{ finishedAt: null }]);
      expect(await sdk.retryDelivery({ id: inFlight.id })).toMatchObject({ status: 'pending', attempts: 1 });
      release();
      const settled = await eventually(async () => {
        const [d] = (await sdk.listDeliveries({})).data;
        return d.attemptLog[0].finishedAt ? d : undefined;
      });
      expect(settled).toMatchObject({ status: 'pending', attempts: 1, attemptLog: [{ statusCode: 500 }] });
      expect(slow.received).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});
