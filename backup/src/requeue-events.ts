import pg from 'pg';

const PAGE = 5000;

export interface RequeueReport {
  /** Per producing service: events unpublished in the dump (its relay publishes them anyway). */
  pending: Record<string, number>;
  /** Per producing service: published events no restored consumer had applied, marked unpublished again. */
  requeued: Record<string, number>;
  /** Published events of the window that a restored consumer had applied: left as they are. */
  alreadyApplied: number;
}

async function hasTable(client: pg.Client, table: string): Promise<boolean> {
  const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [table]);
  return rows[0].found !== null;
}

/**
 * The databases were dumped one after another, consumers first: an event a producer's dump shows as
 * published may have been applied by its consumer only after the consumer's snapshot, and the new
 * stream will not carry it. Each such event (published since `since`, in no restored `applied_events`)
 * goes back to the outbox's queue; one a consumer already applied is not sent again.
 */
export async function requeueUnappliedEvents(
  urls: Record<string, string>,
  since: Date,
): Promise<RequeueReport> {
  const clients = new Map<string, pg.Client>();
  const report: RequeueReport = { pending: {}, requeued: {}, alreadyApplied: 0 };
  try {
    for (const [service, url] of Object.entries(urls)) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.set(service, client);
    }
    const consumers: pg.Client[] = [];
    for (const client of clients.values())
      if (await hasTable(client, 'public.applied_events')) consumers.push(client);
    for (const [service, producer] of clients) {
      if (!(await hasTable(producer, 'public.outbox'))) continue;
      const pending = await producer.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL',
      );
      report.pending[service] = pending.rows[0].n;
      report.requeued[service] = 0;
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const page = await producer.query<{ id: string }>(
          'SELECT id::text FROM outbox WHERE published_at >= $1 AND id > $2 ORDER BY id LIMIT $3',
          [since, after, PAGE],
        );
        if (page.rows.length === 0) break;
        after = page.rows[page.rows.length - 1].id;
        const ids = page.rows.map((r) => r.id);
        const applied = new Set<string>();
        for (const consumer of consumers) {
          const found = await consumer.query<{ event_id: string }>(
            'SELECT DISTINCT event_id FROM applied_events WHERE event_id = ANY($1::text[])',
            [ids],
          );
          for (const r of found.rows) applied.add(r.event_id);
        }
        const unapplied = ids.filter((id) => !applied.has(id));
        report.alreadyApplied += ids.length - unapplied.length;
        if (unapplied.length) {
          await producer.query('UPDATE outbox SET published_at = NULL WHERE id = ANY($1::uuid[])', [
            unapplied,
          ]);
          report.requeued[service] += unapplied.length;
        }
      }
    }
    return report;
  } finally {
    await Promise.all([...clients.values()].map((c) => c.end().catch(() => undefined)));
  }
}
