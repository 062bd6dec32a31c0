import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { namesOf } from '@coin/bus';
import { EVENT_SUBJECTS, identity, type OnboardingProcessedEvent, webhooks } from '@coin/contracts';
import { eventually, partnerReply, type ServiceAlone, startServiceAlone } from '@coin/testing';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhooks } from '../src/service.ts';

// The webhooks service alone: fed onboarding's events on the stream, identity's getPartner answered
// by a stand-in pointing at a local partner endpoint, read over its bus subjects.
let svc: ServiceAlone;
let receiver: Server;
let url: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const secret = `whsec_${randomBytes(24).toString('base64')}`;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  svc = await startServiceAlone('webhooks', startWebhooks, {
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_MAX_MS: '200',
    WEBHOOK_MAX_ATTEMPTS: '3',
  });
  svc.standIn(identity.getPartner, async ({ partnerId }) => partnerReply(partnerId, { url, secret }));
});

afterAll(async () => {
  await svc?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

function verified(h: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${h['webhook-id']}.${h['webhook-timestamp']}.${body}`);
  return h['webhook-signature'] === `v1,${mac.digest('base64')}`;
}

describe('webhooks over the bus', () => {
  it('delivers a processed onboarding request to the partner once, signed, and lists the delivery', async () => {
    const partnerId = randomUUID();
    const event: OnboardingProcessedEvent = {
      eventId: randomUUID(),
      partnerId,
      requestId: randomUUID(),
      event: 'USER_ONBOARDING',
      status: 'success',
      failed: [{ user: randomUUID(), reason: 'userId is already onboarded for this partner' }],
      failedCount: 1,
      usersCount: 3,
    };
    const subject = namesOf(svc.nc).event(EVENT_SUBJECTS.onboardingProcessed);
    // Published twice, as a relay that crashed after publishing would: one delivery.
    await jetstream(svc.nc).publish(subject, JSON.stringify(event), { msgID: event.eventId });
    await jetstream(svc.nc).publish(subject, JSON.stringify(event), { msgID: randomUUID() });

    const list = await eventually(async () => {
      const page = await svc.call(webhooks.listDeliveries, { partnerId, query: { page: 1, limit: 10 } });
      return page.data[0]?.status === 'delivered' ? page : undefined;
    });
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ event: 'USER_ONBOARDING', eventId: event.eventId, attempts: 1 });
    const calls = received.filter((r) => r.body.includes(event.requestId));
    expect(calls).toHaveLength(1);
    expect(verified(calls[0].headers, calls[0].body)).toBe(true);
    expect(JSON.parse(calls[0].body)).toMatchObject({ event: 'USER_ONBOARDING', failed: event.failed });

    const other = await svc.call(webhooks.listDeliveries, {
      partnerId: randomUUID(),
      query: { page: 1, limit: 10 },
    });
    expect(other).toMatchObject({ data: [], count: 0 });
    const foreign = await svc.refusal(webhooks.retryDelivery, {
      partnerId: randomUUID(),
      params: { id: list.data[0].id },
    });
    expect(foreign.status).toBe(404);
  });

  it('refuses a delivery operation without a partner', async () => {
    const missing = await svc.refusal(webhooks.listDeliveries, { query: { page: 1, limit: 5 } } as never);
    expect(missing.status).toBe(401);
  });
});
