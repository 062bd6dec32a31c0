import type { NatsConnection } from '@coin/bus';
import type { webhooks } from '@coin/contracts';
import type { Database } from '@coin/db';
import {
  applyOnceEach,
  type EventMeta,
  keepAppliedId,
  type RunningConsumer,
  startConsumer,
} from '@coin/events';
import type { Logger } from '@coin/telemetry';
import type { z } from 'zod';
import { type PartnerEndpoints, receives } from '../domain/partner-endpoints.ts';
import { type NewDelivery, recordDeliveries } from '../domain/record-deliveries.ts';

type BusEvent = { eventId: string; partnerId: string };

export interface WebhookEventSource<S extends z.ZodType<BusEvent>> {
  consumer: { durable: string; subject: string };
  schema: S;
  kind: webhooks.EventKind;
  /** The body's own fields (and when it happened) of an event the partner receives. */
  fields: (event: z.output<S>, meta: EventMeta) => NewDelivery['fields'] | Promise<NewDelivery['fields']>;
  /** Events taken together: one transaction records a batch's deliveries (the money path's events). */
  batch?: number;
}

export interface ConsumerDeps {
  db: Database;
  nc: NatsConnection;
  log: Logger;
  endpoints: PartnerEndpoints;
  onStored: () => void;
}

/**
 * Turns a bus event into a delivery of its kind for each partner that receives that kind (has a
 * webhook URL and subscribes), through libs/events' consumer: a partner that does not is skipped
 * with a cached lookup and no database work, so it takes no sequence number. The deliveries of the
 * events not applied before are recorded with the events' ids in one transaction, so a redelivered
 * event creates no second delivery and takes no second number. While this service's database or
 * identity is down the events are retried (libs/events' policy: a day); none is lost.
 */
function consumeWebhookEvents<S extends z.ZodType<BusEvent>>(
  deps: ConsumerDeps,
  source: WebhookEventSource<S>,
): Promise<RunningConsumer> {
  type E = z.output<S>;
  const durable = source.consumer.durable;

  async function handleBatch(events: E[], metas: EventMeta[]): Promise<void> {
    const partners = [...new Set(events.map((e) => e.partnerId))];
    const endpoints = await Promise.all(partners.map((p) => deps.endpoints.endpointOf(p)));
    const receiving = new Set(partners.filter((_, i) => receives(endpoints[i], source.kind)));
    const wanted = events.flatMap((event, i) =>
      receiving.has(event.partnerId) ? [{ event, meta: metas[i] }] : [],
    );
    if (wanted.length === 0) return;
    const deliveries: NewDelivery[] = await Promise.all(
      wanted.map(async ({ event, meta }) => ({
        eventId: event.eventId,
        partnerId: event.partnerId,
        kind: source.kind,
        fields: await source.fields(event, meta),
      })),
    );
    const stored = await applyOnceEach(deps.db.em.fork(), durable, deliveries, recordDeliveries);
    if (stored.length > 0) deps.onStored();
  }

  const common = {
    nc: deps.nc,
    log: deps.log,
    durable,
    subject: source.consumer.subject,
    schema: source.schema,
    beforePark: keepAppliedId(deps.db, [durable]),
    concurrency: 4,
  };
  return source.batch
    ? startConsumer({ ...common, batch: { size: source.batch }, handleBatch })
    : startConsumer({ ...common, handle: (event, meta) => handleBatch([event], [meta]) });
}

/** A source ready to start, its event's type kept inside: sources of different events share a list. */
export interface SourceStarter {
  durable: string;
  start(deps: ConsumerDeps): Promise<RunningConsumer>;
}

export function starterOf<S extends z.ZodType<BusEvent>>(source: WebhookEventSource<S>): SourceStarter {
  return { durable: source.consumer.durable, start: (deps) => consumeWebhookEvents(deps, source) };
}
