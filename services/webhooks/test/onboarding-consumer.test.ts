import { randomUUID } from 'node:crypto';
import { EVENT_SUBJECTS, identity, webhooks } from '@coin/contracts';
import { listParked } from '@coin/events';
import {
  databaseOutage,
  eventually,
  partnerReply,
  type ServiceAlone,
  startServiceAlone,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhooks } from '../src/index.ts';

/**
 * The webhooks service's onboarding consumer, fed straight from the events stream (what onboarding
 * publishes), observed through the service's own listDeliveries operation.
 */

let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('webhooks', startWebhooks);
  // Every partner subscribes; its URL refuses connections, so deliveries stay pending here.
  const endpoint = {
    url: 'http://127.0.0.1:9/hooks',
    secret: `whsec_${Buffer.alloc(24).toString('base64')}`,
  };
  svc.standIn(identity.getPartner, async ({ partnerId }) => partnerReply(partnerId, endpoint));
});

afterAll(async () => {
  await svc?.stop();
});

function processed(partnerId: string) {
  return {
    eventId: randomUUID(),
    partnerId,
    requestId: randomUUID(),
    event: 'USER_ONBOARDING',
    status: 'success',
    failed: [],
    failedCount: 0,
    usersCount: 3,
  };
}

const publish = (payload: Record<string, unknown>) =>
  svc.publish(EVENT_SUBJECTS.onboardingProcessed, payload);

async function deliveries(partnerId: string) {
  const page = await svc.call(webhooks.listDeliveries, { partnerId, query: { limit: 100 } as never });
  return page.data;
}

describe('onboarding consumer', () => {
  it('parks a malformed event with the field named, and stores no delivery for it', async () => {
    const partnerId = randomUUID();
    await publish({ ...processed(partnerId), failedCount: -1 });
    const good = processed(partnerId);
    await publish(good);
    const [one] = await eventually(async () => {
      const d = await deliveries(partnerId);
      return d.length === 1 ? d : undefined;
    });
    expect(one.eventId).toBe(good.eventId);
    const parked = await eventually(async () => {
      for await (const p of listParked(svc.nc, 'webhooks-onboarding'))
        if (p.payload.includes(partnerId)) return p;
      return undefined;
    });
    expect(parked.reason).toMatch(/^malformed: failedCount: /);
  });

  it('stores one delivery for an event published twice', async () => {
    const partnerId = randomUUID();
    const event = processed(partnerId);
    await publish(event);
    await publish(event);
    await eventually(async () => ((await deliveries(partnerId)).length === 1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect((await deliveries(partnerId)).map((d) => d.eventId)).toEqual([event.eventId]);
  });

  it('stores every event published while its database refuses connections once it is back, each once', async () => {
    const partnerId = randomUUID();
    const events = Array.from({ length: 6 }, () => processed(partnerId));
    const outage = await databaseOutage(svc.env.WEBHOOKS_DATABASE_URL!);
    try {
      for (const e of events) await publish(e);
      await new Promise((r) => setTimeout(r, 5000));
    } finally {
      await outage.end();
    }
    const stored = await eventually(async () => {
      const d = await deliveries(partnerId);
      return d.length === events.length ? d : undefined;
    }, 60_000);
    expect(stored.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.eventId).sort());
  }, 90_000);
});
