import { boundQuery, type Database } from '@coin/db';
import { counter, gauge, oneReadPerScrape } from '@coin/telemetry';

export const webhookAttempts = counter({
  name: 'coin_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry (will be tried again), failed (schedule exhausted), disabled (410)',
  labelNames: ['outcome'] as const,
});

let reading: (() => Promise<{ pending: number; oldest: number }>) | undefined;

async function pendingDeliveries(db: Database): Promise<{ pending: number; oldest: number }> {
  const [row] = await boundQuery<{ pending: number; oldest: number | null }>(
    db.em.fork(),
    `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float AS oldest
         FROM deliveries WHERE status = 'pending'`,
    [],
  );
  return { pending: row.pending, oldest: row.oldest ?? 0 };
}

const backlog = gauge({
  name: 'coin_webhook_backlog_deliveries',
  help: 'Webhook deliveries not yet delivered nor given up',
  async collect() {
    if (reading) this.set((await reading()).pending);
  },
});

const oldest = gauge({
  name: 'coin_webhook_oldest_pending_seconds',
  help: 'Age of the oldest webhook delivery still pending (0 when none)',
  async collect() {
    if (reading) this.set((await reading()).oldest);
  },
});

/** Reports the delivery backlog of this database at every scrape, until the returned function is called. */
export function watchDeliveries(db: Database): () => void {
  reading = oneReadPerScrape(() => pendingDeliveries(db));
  return () => {
    reading = undefined;
    backlog.reset();
    oldest.reset();
  };
}
