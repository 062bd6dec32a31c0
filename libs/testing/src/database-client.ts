import pg from 'pg';

/**
 * Runs `fn` on a connection of its own to the database at `url`, closed afterwards: a test reading a
 * service's tables, or damaging them on purpose, outside the service's pool.
 */
export async function withDatabase<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The rows of one statement, run on a connection of its own. */
export function queryDatabase<T = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return withDatabase(url, async (client) => (await client.query(sql, params)).rows as T[]);
}
