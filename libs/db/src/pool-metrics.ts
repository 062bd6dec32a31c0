import { counter, gauge } from '@coin/telemetry';
import type pg from 'pg';

const pools = new Map<string, { pool: pg.Pool; max: number }>();

function perPool(read: (p: { pool: pg.Pool; max: number }) => number) {
  return function collect(this: { set(labels: { service: string }, value: number): void }) {
    for (const [service, p] of pools) this.set({ service }, read(p));
  };
}

gauge({
  name: 'coin_db_pool_in_use',
  help: 'Database connections checked out of the pool, by service',
  labelNames: ['service'] as const,
  collect: perPool((p) => p.pool.totalCount - p.pool.idleCount),
});

gauge({
  name: 'coin_db_pool_waiting',
  help: 'Callers waiting for a pooled database connection, by service',
  labelNames: ['service'] as const,
  collect: perPool((p) => p.pool.waitingCount),
});

gauge({
  name: 'coin_db_pool_max',
  help: 'Size limit of the database pool, by service',
  labelNames: ['service'] as const,
  collect: perPool((p) => p.max),
});

export const dbTimeouts = counter({
  name: 'coin_db_timeouts_total',
  help: 'Database waits that ran out: a statement cancelled (statement) or no pooled connection in time (acquire), by service',
  labelNames: ['service', 'kind'] as const,
});

/** Reports the pool's use at every scrape; a service's pool opened again replaces the closed one. */
export function watchPool(service: string, pool: pg.Pool, max: number): void {
  pools.set(service, { pool, max });
}
