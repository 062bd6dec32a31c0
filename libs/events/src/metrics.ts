import { backlogGauges, type QueueReading } from '@coin/jobs';
import { counter, histogram, scrapedGauges } from '@coin/telemetry';

type Backlog = () => Promise<QueueReading>;

/** Outbox rows wait for JetStream's acknowledgement as jobs wait for a worker. */
const outboxGauges = backlogGauges(
  'Outbox rows',
  {
    pending: 'coin_outbox_backlog_events',
    oldest: 'coin_outbox_oldest_age_seconds',
    parked: 'coin_outbox_parked_events',
  },
  ['service'],
);

export const outboxPublished = counter({
  name: 'coin_outbox_published_total',
  help: 'Events published from the outbox and acknowledged by JetStream, by service',
  labelNames: ['service'] as const,
});

export const outboxPurged = counter({
  name: 'coin_outbox_purged_total',
  help: 'Published outbox rows deleted once older than OUTBOX_RETENTION_HOURS, by service',
  labelNames: ['service'] as const,
});

export const appliedEventsPurged = counter({
  name: 'coin_applied_events_purged_total',
  help: "Consumers' applied-event ids deleted once older than the events stream's retention and a day, by service",
  labelNames: ['service'] as const,
});

/** Reports a relay's backlog at every scrape until the returned function is called. */
export function watchOutbox(service: string, backlog: Backlog): () => void {
  return outboxGauges.watch({ service }, backlog);
}

const consumerPending = scrapedGauges<'durable', number>(
  ['durable'],
  [
    {
      name: 'coin_consumer_pending_events',
      help: 'Events of a durable JetStream consumer not yet delivered or not yet acknowledged, by durable',
      value: (n) => n,
    },
  ],
);

const consumerParked = scrapedGauges<'durable', number>(
  ['durable'],
  [
    {
      name: 'coin_consumer_parked_events',
      help: 'Events a durable JetStream consumer has parked and nobody has replayed yet, by durable',
      value: (n) => n,
    },
  ],
);

export const consumerOutcomes = counter({
  name: 'coin_consumer_events_total',
  help: 'Events handled by a consumer, by durable and outcome (ack, retry, parked, foreign: delivered for another durable or outside its filter, not handled)',
  labelNames: ['durable', 'outcome'] as const,
});

export const consumerDuration = histogram({
  name: 'coin_consumer_handle_duration_seconds',
  help: 'Time a consumer took to handle one event, by durable',
  labelNames: ['durable'] as const,
});

/** Reports a consumer's pending count at every scrape until the returned function is called. */
export function watchConsumer(durable: string, pending: () => Promise<number>): () => void {
  return consumerPending.watch({ durable }, pending);
}

/** Reports how many events a consumer has parked at every scrape until the returned function is called. */
export function watchParked(durable: string, count: () => Promise<number>): () => void {
  return consumerParked.watch({ durable }, count);
}
