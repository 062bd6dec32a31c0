import type pg from 'pg';

/** pg-pool's own lists: the clients it made, and those idle in it. */
interface PoolInternals {
  _clients: pg.PoolClient[];
  _idle: { client: pg.PoolClient }[];
}

/**
 * kysely gives a transaction's connection back to the pool only after its COMMIT or ROLLBACK
 * succeeds (kysely-org/kysely#1990, open): a session Postgres ended in the middle of a transaction
 * (a restart, a failover, pg_terminate_backend) would stay checked out for ever, one pool slot lost
 * each time until every request waits out the acquire timeout. A connection that closed while
 * checked out and is still checked out a moment later is given back with an error, which makes the
 * pool discard it; by then any caller that would release it has done so.
 */
export function reclaimDeadConnections(pool: pg.Pool, graceMs = 1000): void {
  const internals = pool as unknown as PoolInternals;
  pool.on('connect', (client) => {
    client.once('end', () => {
      setTimeout(() => {
        const checkedOut =
          internals._clients.includes(client) && !internals._idle.some((i) => i.client === client);
        if (checkedOut) client.release(new Error('connection closed while checked out'));
      }, graceMs).unref();
    });
  });
}
