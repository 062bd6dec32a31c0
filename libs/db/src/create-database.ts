import pg from 'pg';

/** Whether the database at `url` exists (3D000: it does not); any other failure to connect is thrown. */
async function exists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '3D000') return false;
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates the database when it is missing and the URL's role may (tests on a superuser; deployments
 * create it with `npm run db:roles`); safe when several replicas race to do it.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[a-zA-Z0-9_]+$/.test(name)) throw new Error(`database name "${name}" must be letters, digits and _`);
  if (await exists(url)) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } catch (err) {
      // 42P04 duplicate_database, 23505 a concurrent CREATE won on pg_database's unique index.
      const code = (err as { code?: string }).code;
      if (code === '42501')
        throw new Error(
          `database ${name} does not exist and role ${target.username} may not create it: set up the roles and databases with npm run db:roles`,
        );
      if (code !== '42P04' && code !== '23505') throw err;
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
