import { connectBus, type NatsConnection } from '@coin/bus';
import { EVENT_CONSUMERS, webhooks } from '@coin/contracts';
import {
  eventually,
  type ReceivedWebhook,
  type Stack,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumedUpTo, ledgerEventPublished } from './support/events.ts';
import { newUsers } from './support/onboarding.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

/**
 * The events partners subscribe to, through the gateway: every kind delivered
 * signed with its documented body, `sequence` 1..N per partner, the subscription filter, and the
 * list of kinds with their schemas.
 */

let stack: Stack;
let nc: NatsConnection;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'rules', 'wallet', 'webhooks'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
  nc = await connectBus(stack.env.NATS_URL!, 'webhook-events test', stack.env.NATS_NAMESPACE!);
});

afterAll(async () => {
  await nc?.close();
  for (const r of receivers) await r.close();
  await stack?.stop();
});

async function subscribed(events?: webhooks.EventKind[]) {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const p = await registerAndLogin(stack.api);
  const sdk = partnerClient(stack.api, p);
  const set = await sdk.setWebhook({ url: receiver.url, ...(events ? { events } : {}) });
  return { p, sdk, receiver, secret: set.secret!, set };
}

/** One call per delivery (a repeat of a delivery carries its webhook-id again). */
function distinct(received: ReceivedWebhook[]): ReceivedWebhook[] {
  const byId = new Map(received.map((r) => [String(r.headers['webhook-id']), r]));
  return [...byId.values()].sort((a, b) => a.json.sequence - b.json.sequence);
}

async function deliveredCount(receiver: WebhookReceiver, n: number): Promise<ReceivedWebhook[]> {
  return eventually(async () => {
    const got = distinct(receiver.received);
    return got.length >= n ? got : undefined;
  }, 20_000);
}

const ledgerConsumers = {
  transfer: EVENT_CONSUMERS.webhooksTransfers,
  reversal: EVENT_CONSUMERS.webhooksReversals,
};

/**
 * The webhooks service has taken (recorded or skipped) the event of the ledger entry: a change of
 * subscription after this cannot reach it.
 */
async function taken(kind: keyof typeof ledgerConsumers, ledgerEntryId: string): Promise<void> {
  const { subject, durable } = ledgerConsumers[kind];
  await consumedUpTo(nc, durable, await ledgerEventPublished(nc, subject, ledgerEntryId));
}

async function coins(p: RegisteredPartner, direction: 'to' | 'from', userId: string, amount: number) {
  const sdk = partnerClient(stack.api, p);
  const body = { userId, coins: amount };
  const res = direction === 'to' ? await sdk.transferToUser(body) : await sdk.transferFromUser(body);
  return res.coinsLedger;
}

describe('webhook events', () => {
  it('delivers every kind, signed, with its documented body and sequence 1..N', async () => {
    const { p, sdk, receiver, secret, set } = await subscribed();
    expect(set.events).toEqual([...webhooks.EVENT_KINDS]);
    const [userId] = await onboardUsers(stack.api, p.accessToken, 1);
    const tier = await sdk.createTier({ name: 'gold', rank: 1 });
    await sdk.upgradeTier({ userId, tierId: tier.id });
    await sdk.upgradeTier({ userId, tierId: tier.id });
    await sdk.createRule({ name: 'first', coinValue: '5', maxNumberOfParticipant: '1', condition: '' });
    const rewarded = await sdk.rewardUser({ userId, ruleName: 'first' });
    const ten = await coins(p, 'to', userId, 10);
    const reversal = await sdk.reverseTransfer({ ledgerEntryId: ten.id });
    await sdk.setTreasury({ issuanceLimit: 100 });
    const crossing = await coins(p, 'to', userId, 80);
    const redemption = await coins(p, 'from', userId, 20);
    const again = await coins(p, 'to', userId, 20);
    const above = await coins(p, 'to', userId, 1);

    const got = await deliveredCount(receiver, 12);
    await new Promise((r) => setTimeout(r, 500));
    expect(distinct(receiver.received)).toHaveLength(12);
    expect(got.map((r) => r.json.sequence)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    for (const r of got) {
      expect(verifySignature(secret, r.headers, r.body)).toBe(true);
      const kind = r.json.event as webhooks.EventKind;
      const parsed = webhooks.payloadSchemas[kind].strict().safeParse(r.json);
      expect(parsed.error?.issues ?? [], kind).toEqual([]);
      expect(r.json.status).toBe('success');
      expect(Number.isNaN(Date.parse(r.json.occurredAt))).toBe(false);
    }
    const of = (kind: webhooks.EventKind) => got.filter((r) => r.json.event === kind).map((r) => r.json);
    expect(of('USER_ONBOARDING')).toEqual([
      expect.objectContaining({ requestId: expect.any(String), failed: [] }),
    ]);
    expect(of('USER_TIER_CHANGED')).toEqual([
      expect.objectContaining({ userId, tierId: tier.id, tierName: 'gold', previousTierId: null }),
    ]);
    expect(of('RULE_CAP_REACHED')).toEqual([
      expect.objectContaining({ ruleName: 'first', maxNumberOfParticipant: 1 }),
    ]);
    expect(of('COINS_TRANSFERRED').map((e) => [e.ledgerEntryId, e.debitOrCredit, e.coins])).toEqual(
      expect.arrayContaining([
        [rewarded.coinsLedger.id, 'CR', 5],
        [ten.id, 'CR', 10],
        [crossing.id, 'CR', 80],
        [redemption.id, 'DE', 20],
        [again.id, 'CR', 20],
        [above.id, 'CR', 1],
      ]),
    );
    expect(of('COINS_TRANSFERRED')).toHaveLength(6);
    expect(of('COINS_REVERSED')).toEqual([
      expect.objectContaining({
        ledgerEntryId: reversal.coinsLedger.id,
        reversedEntryId: ten.id,
        debitOrCredit: 'DE',
        coins: 10,
      }),
    ]);
    // 5 → 85 crosses 80 % of 100; 65 re-arms it; 85 crosses again; 86 does not.
    expect(of('TREASURY_LOW').map((e) => [e.outstanding, e.issuanceLimit, e.threshold])).toEqual([
      [85, 100, 0.8],
      [85, 100, 0.8],
    ]);
    const log = await sdk.listDeliveries({ limit: 100 });
    expect(log.data.map((d) => d.sequence).sort((a, b) => a! - b!)).toEqual(got.map((r) => r.json.sequence));
  }, 60_000);

  it('sends only the kinds subscribed to, numbered without gaps', async () => {
    const { p, sdk, receiver, set } = await subscribed(['COINS_TRANSFERRED', 'USER_TIER_CHANGED']);
    expect(set.events).toEqual(['COINS_TRANSFERRED', 'USER_TIER_CHANGED']);
    expect((await sdk.getMe()).webhookEvents).toEqual(['COINS_TRANSFERRED', 'USER_TIER_CHANGED']);
    const [userId] = await onboardUsers(stack.api, p.accessToken, 1);
    const first = await coins(p, 'to', userId, 3);
    const unsent = await sdk.reverseTransfer({ ledgerEntryId: first.id });
    const tier = await sdk.createTier({ name: 'silver', rank: 1 });
    await sdk.upgradeTier({ userId, tierId: tier.id });
    const second = await coins(p, 'to', userId, 4);

    const got = await deliveredCount(receiver, 3);
    await new Promise((r) => setTimeout(r, 1000));
    expect(distinct(receiver.received).map((r) => [r.json.sequence, r.json.event])).toEqual([
      [1, expect.stringMatching(/^(COINS_TRANSFERRED|USER_TIER_CHANGED)$/)],
      [2, expect.stringMatching(/^(COINS_TRANSFERRED|USER_TIER_CHANGED)$/)],
      [3, expect.stringMatching(/^(COINS_TRANSFERRED|USER_TIER_CHANGED)$/)],
    ]);
    expect(got.filter((r) => r.json.event === 'COINS_TRANSFERRED').map((r) => r.json.ledgerEntryId)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );

    // Every kind again (no `events`): the reversal of the second transfer is sent, numbered 4.
    await taken('reversal', unsent.coinsLedger.id);
    await sdk.setWebhook({ url: receiver.url });
    expect((await sdk.getMe()).webhookEvents).toEqual([...webhooks.EVENT_KINDS]);
    await sdk.reverseTransfer({ ledgerEntryId: second.id });
    const [fourth] = (await deliveredCount(receiver, 4)).slice(3);
    expect(fourth.json).toMatchObject({ event: 'COINS_REVERSED', sequence: 4, reversedEntryId: second.id });
  }, 60_000);

  it('records only USER_ONBOARDING while a partner has no webhook URL, and numbers from 1', async () => {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const p = await registerAndLogin(stack.api);
    const sdk = partnerClient(stack.api, p);
    const [userId] = await onboardUsers(stack.api, p.accessToken, 1);
    // The request's outcome is recorded without a URL and waits for one (docs/specification.md, "Events").
    await eventually(async () => ((await sdk.listDeliveries({})).count === 1 ? true : undefined), 20_000);
    await taken('transfer', (await coins(p, 'to', userId, 2)).id);
    await sdk.setWebhook({ url: receiver.url, events: ['COINS_TRANSFERRED'] });
    const later = await coins(p, 'to', userId, 3);
    const got = await deliveredCount(receiver, 2);
    expect(got.map((r) => [r.json.event, r.json.sequence])).toEqual([
      ['USER_ONBOARDING', 1],
      ['COINS_TRANSFERRED', 2],
    ]);
    expect(got[1].json).toMatchObject({ ledgerEntryId: later.id });
    expect((await sdk.listDeliveries({})).count).toBe(2);
  }, 40_000);

  it('reports a crossing once under concurrency: the treasury mark and a rule cap', async () => {
    const { p, sdk, receiver } = await subscribed(['TREASURY_LOW', 'RULE_CAP_REACHED']);
    const users = await onboardUsers(stack.api, p.accessToken, 20);
    await sdk.setTreasury({ issuanceLimit: 100 });
    // 40 transfers of 2 at once take outstanding from 0 to 80: one of them crosses 80 %.
    await Promise.all(Array.from({ length: 40 }, (_, i) => coins(p, 'to', users[i % 20], 2)));
    await sdk.createRule({ name: 'five', coinValue: '1', maxNumberOfParticipant: '5', condition: '' });
    const rewards = await Promise.allSettled(
      users.map((userId) => sdk.rewardUser({ userId, ruleName: 'five' })),
    );
    expect(rewards.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    await coins(p, 'to', users[0], 1);

    const got = await deliveredCount(receiver, 2);
    await new Promise((r) => setTimeout(r, 1000));
    expect(distinct(receiver.received).map((r) => r.json.sequence)).toEqual([1, 2]);
    expect(got.map((r) => r.json.event).sort()).toEqual(['RULE_CAP_REACHED', 'TREASURY_LOW']);
    // Only the 40th coin pair reaches the mark; the rewards and the last transfer come after it.
    expect(got.find((r) => r.json.event === 'TREASURY_LOW')!.json).toMatchObject({ outstanding: 80 });
  }, 60_000);

  it('refuses an unknown, repeated or empty list of kinds with 400 naming `events`', async () => {
    const p = await registerAndLogin(stack.api);
    const url = 'http://127.0.0.1:9/hooks';
    const put = (events: unknown) =>
      stack.api.put('/api/v1/ufel/partners/webhook', { url, events }, { token: p.accessToken });
    const unknown = await put(['COINS_TRANSFERRED', 'COINS_MINTED']);
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.error).toMatch(/events\[1\]/);
    for (const bad of [[], ['TREASURY_LOW', 'TREASURY_LOW'], 'TREASURY_LOW']) {
      const res = await put(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.data.error).toMatch(/^events/);
    }
  });

  it('lists every kind with the JSON Schema of its body', async () => {
    const p = await registerAndLogin(stack.api);
    const res = await stack.api.get('/api/v1/laas/webhooks/events', { token: p.accessToken });
    expect(res.status).toBe(200);
    const kinds = res.body.data.data as { event: string; description: string; schema: any }[];
    expect(kinds.map((k) => k.event)).toEqual([...webhooks.EVENT_KINDS]);
    for (const k of kinds) {
      expect(k.description.length).toBeGreaterThan(20);
      expect(k.schema.type).toBe('object');
      expect(k.schema.properties.event.const).toBe(k.event);
      expect(k.schema.required).toEqual(
        expect.arrayContaining(['event', 'status', 'occurredAt', 'sequence']),
      );
    }
    expect((await stack.api.get('/api/v1/laas/webhooks/events')).status).toBe(401);
  });

  it('keeps the onboarding webhook of a partner subscribed to it alone', async () => {
    const { p, receiver } = await subscribed(['USER_ONBOARDING']);
    const users = newUsers(2);
    await partnerClient(stack.api, p).onboardUsers({ users });
    const [hook] = await deliveredCount(receiver, 1);
    const body = webhooks.payloadSchemas.USER_ONBOARDING.strict().parse(hook.json);
    expect(body).toMatchObject({ sequence: 1, failed: [] });
  });
});
