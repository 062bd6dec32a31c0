import { adminUrlFor } from '@coin/config';
import pg from 'pg';

export interface DatabaseOutage {
  /** Lets the database take connections again. */
  end(): Promise<void>;
}

/** The server of `url` as its administrator (a service's own role may not close its database). */
async function admin<T>(url: string, run: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const administrator = new URL(adminUrlFor(undefined));
  target.username = administrator.username;
  target.password = administrator.password;
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    return await run(client, name);
  } finally {
    await client.end();
  }
}

/**
 * One service's database goes down for the others' tests' sake without stopping the shared server:
 * it refuses new connections and its open sessions are ended, until `end`.
 */
export async function databaseOutage(url: string): Promise<DatabaseOutage> {
  await admin(url, async (client, name) => {
    await client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  });
  return {
    end: () =>
      admin(url, async (client, name) => {
        await client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      }),
  };
}
