import { type EntityManager, IsolationLevel } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';

/**
 * The one way to run SQL: `$1`-style parameters bound by the driver, in the entity manager's
 * transaction when it has one. MikroORM's `execute` inlines parameters with a character-by-character
 * escape, which took seconds for megabytes of JSON (a large onboarding request or its events).
 */
export async function boundQuery<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const runner = em.getTransactionContext<Kysely<unknown>>() ?? em.getConnection().getClient();
  const res = await runner.executeQuery(CompiledQuery.raw(sql, params));
  return res.rows as T[];
}

/** The one row a statement returns (a lookup by key, an update of one row), or undefined when none. */
export async function boundRow<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T | undefined> {
  const [row] = await boundQuery<T>(em, sql, params);
  return row;
}

/**
 * Runs `read` on one snapshot of the database (a read-only REPEATABLE READ transaction), so that
 * statements read together agree: side by side on two connections, a page and its count could
 * straddle a commit, and a partner saw a count of 2 beside one row.
 */
export function readSnapshot<T>(em: EntityManager, read: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional(read, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

/**
 * A page of rows and how many there are in all, read on one snapshot. `from` is what both statements
 * read (`table WHERE …`, its parameters `params`); the page's limit and offset are bound after them.
 */
export function boundPage<T>(
  em: EntityManager,
  query: { columns: string; from: string; orderBy: string },
  params: unknown[],
  page: { limit: number; offset: number },
): Promise<{ rows: T[]; count: number }> {
  const limit = `$${params.length + 1}`;
  const offset = `$${params.length + 2}`;
  return readSnapshot(em, async (tx) => {
    const rows = await boundQuery<T>(
      tx,
      `SELECT ${query.columns} FROM ${query.from} ORDER BY ${query.orderBy} LIMIT ${limit} OFFSET ${offset}`,
      [...params, page.limit, page.offset],
    );
    const [total] = await boundQuery<{ count: number }>(
      tx,
      `SELECT count(*)::int AS count FROM ${query.from}`,
      params,
    );
    return { rows, count: total.count };
  });
}

/**
 * Inserts a row and returns it (the statement ends with `RETURNING`). The unique indexes decide
 * between concurrent writers: a violation becomes the error `onDuplicate` makes of the violated
 * constraint's name (the operation's 409), any other failure is thrown as it is.
 */
export async function insertUnique<T>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  onDuplicate: (constraint: string) => Error,
): Promise<T> {
  try {
    const [row] = await boundQuery<T>(em, sql, params);
    return row;
  } catch (err) {
    const constraint = violatedUniqueConstraint(err);
    if (constraint) throw onDuplicate(constraint);
    throw err;
  }
}

/** The unique constraint (or unique index) a statement violated, when that is why it failed. */
function violatedUniqueConstraint(err: unknown): string | undefined {
  const e = err as { code?: unknown; constraint?: unknown };
  return e?.code === '23505' && typeof e.constraint === 'string' ? e.constraint : undefined;
}

/** A timestamp as rows carry it (Postgres text: MikroORM's pool parses no dates) in ISO 8601, UTC. */
export function isoTime(value: string | Date): string {
  return new Date(value).toISOString();
}
