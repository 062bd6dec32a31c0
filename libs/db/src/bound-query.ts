import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';

/**
 * Runs SQL with `$1`-style parameters bound by the driver. MikroORM's `execute` inlines parameters
 * with a character-by-character escape, which took seconds for megabytes of JSON (a large
 * onboarding request or its events); bulk statements bind them instead. Joins the entity manager's
 * transaction.
 */
export async function boundQuery<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const runner = em.getTransactionContext<Kysely<unknown>>() ?? em.getConnection().getClient();
  const res = await runner.executeQuery(CompiledQuery.raw(sql, params));
  return res.rows as T[];
}
