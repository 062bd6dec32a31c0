import { counter, gauge, histogram, oneReadPerScrape } from '@coin/telemetry';

type Backlog = () => Promise<{ pending: number; oldestSeconds: number; parked: number }>;

const outboxes = new Map<string, Backlog>();
const consumers = new Map<string, () => Promise<number>>();
const parked = new Map<string, () => Promise<number>>();

/** Asks every live source at scrape time; a source that cannot answer (database down) is left out. */
async function collectEach<V>(
  sources: Map<string, () => Promise<V>>,
  set: (key: string, value: V) => void,
  clear: (key: string) => void,
): Promise<void> {
  await Promise.all(
    [...sources].map(async ([key, read]) => {
      try {
        set(key, await read());
      } catch {
        clear(key);
      }
    }),
  );
}

type OutboxReading = Awaited<ReturnType<Backlog>>;

/** One gauge per part of an outbox's reading, all fed by the same query at a scrape. */
function outboxGauge(name: string, help: string, part: (r: OutboxReading) => number) {
  return gauge({
    name,
    help,
    labelNames: ['service'] as const,
    async collect() {
      await collectEach(
        outboxes,
        (service, r) => this.set({ service }, part(r)),
        (service) => this.remove({ service }),
      );
    },
  });
}

const outboxGauges = [
  outboxGauge(
    'coin_outbox_backlog_events',
    'Outbox rows not yet acknowledged by JetStream nor parked, by service',
    (r) => r.pending,
  ),
  outboxGauge(
    'coin_outbox_oldest_age_seconds',
    'Age of the oldest of them (0 when none), by service',
    (r) => r.oldestSeconds,
  ),
  outboxGauge(
    'coin_outbox_parked_events',
    'Outbox rows parked after their last try (listed and replayed by `npm run parked`), by service',
    (r) => r.parked,
  ),
];

export const outboxPublished = counter({
  name: 'coin_outbox_published_total',
  help: 'Events published from the outbox and acknowledged by JetStream, by service',
  labelNames: ['service'] as const,
});

/** Reports a relay's backlog at every scrape until the returned function is called. */
export function watchOutbox(service: string, backlog: Backlog): () => void {
  outboxes.set(service, oneReadPerScrape(backlog));
  return () => {
    outboxes.delete(service);
    for (const g of outboxGauges) g.remove({ service });
  };
}

const consumerPending = gauge({
  name: 'coin_consumer_pending_events',
  help: 'Events of a durable JetStream consumer not yet delivered or not yet acknowledged, by durable',
  labelNames: ['durable'] as const,
  async collect() {
    await collectEach(
      consumers,
      (durable, pending) => this.set({ durable }, pending),
      (durable) => this.remove({ durable }),
    );
  },
});

const consumerParked = gauge({
  name: 'coin_consumer_parked_events',
  help: 'Events a durable JetStream consumer has parked and nobody has replayed yet, by durable',
  labelNames: ['durable'] as const,
  async collect() {
    await collectEach(
      parked,
      (durable, n) => this.set({ durable }, n),
      (durable) => this.remove({ durable }),
    );
  },
});

export const consumerOutcomes = counter({
  name: 'coin_consumer_events_total',
  help: 'Events handled by a consumer, by durable and outcome (ack, retry, parked)',
  labelNames: ['durable', 'outcome'] as const,
});

export const consumerDuration = histogram({
  name: 'coin_consumer_handle_duration_seconds',
  help: 'Time a consumer took to handle one event, by durable',
  labelNames: ['durable'] as const,
});

/** Reports a consumer's pending count at every scrape until the returned function is called. */
export function watchConsumer(durable: string, pending: () => Promise<number>): () => void {
  consumers.set(durable, pending);
  return () => {
    consumers.delete(durable);
    consumerPending.remove({ durable });
  };
}

/** Reports how many events a consumer has parked at every scrape until the returned function is called. */
export function watchParked(durable: string, count: () => Promise<number>): () => void {
  parked.set(durable, count);
  return () => {
    parked.delete(durable);
    consumerParked.remove({ durable });
  };
}
