import pg from 'pg';
import { SERVICES } from './cluster.ts';

export type Service = (typeof SERVICES)[number];

/** Read access to every service database of the run, for the wait for quiet and the final read. */
export class Books {
  private readonly pools = new Map<Service, pg.Pool>();

  constructor(env: NodeJS.ProcessEnv) {
    for (const s of SERVICES) {
      const pool = new pg.Pool({ connectionString: env[`${s.toUpperCase()}_DATABASE_URL`], max: 2 });
      // An idle connection cut (a failover, the run's databases dropped on Ctrl-C) is no failure of
      // the read: the next query opens another. Unheard, it stopped the run with its servers left up.
      pool.on('error', () => undefined);
      this.pools.set(s, pool);
    }
  }

  async query<T = Record<string, unknown>>(
    service: Service,
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    return (await this.pools.get(service)!.query(sql, params)).rows as T[];
  }

  async connect(service: Service): Promise<pg.PoolClient> {
    return this.pools.get(service)!.connect();
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.end()));
  }
}

/** Every queue of work a service keeps in its database, as @coin/jobs declares them. */
export const QUEUES: { service: Service; name: string; table: string; unfinished: string }[] = [
  ...SERVICES.map((service) => ({
    service,
    name: 'outbox',
    table: 'outbox',
    unfinished: 'published_at IS NULL',
  })),
  { service: 'identity', name: 'mail', table: 'mail_outbox', unfinished: 'sent_at IS NULL' },
  { service: 'rules', name: 'reward-payment', table: 'participations', unfinished: "status = 'pending'" },
  { service: 'webhooks', name: 'webhook-delivery', table: 'deliveries', unfinished: "status <> 'delivered'" },
  {
    service: 'onboarding',
    name: 'onboarding',
    table: 'onboarding_requests',
    unfinished: "status = 'pending'",
  },
];

/** Unfinished and parked jobs of each queue (a missing table counts as an empty queue). */
export async function readQueues(
  books: Books,
): Promise<{ queue: string; service: Service; pending: number; parked: number }[]> {
  const out = [];
  for (const q of QUEUES) {
    const rows = await books
      .query<{ pending: number; parked: number }>(
        q.service,
        `SELECT count(*) FILTER (WHERE parked_at IS NULL)::int AS pending,
                count(*) FILTER (WHERE parked_at IS NOT NULL)::int AS parked
           FROM ${q.table} WHERE ${q.unfinished}`,
      )
      .catch((err: { code?: string }) => {
        if (err.code === '42P01') return [{ pending: 0, parked: 0 }];
        throw err;
      });
    out.push({ queue: q.name, service: q.service, ...rows[0] });
  }
  return out;
}
