import type { EntityManager } from '@mikro-orm/postgresql';
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

/** The unique constraint (or unique index) a statement violated, when that is why it failed. */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  const e = err as { code?: unknown; constraint?: unknown };
  return e?.code === '23505' && typeof e.constraint === 'string' ? e.constraint : undefined;
}

/** A timestamp as rows carry it (Postgres text: MikroORM's pool parses no dates) in ISO 8601, UTC. */
export function isoTime(value: string | Date): string {
  return new Date(value).toISOString();
}
