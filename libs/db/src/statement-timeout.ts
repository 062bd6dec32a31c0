import type { EntityManager } from '@mikro-orm/postgresql';
import { boundQuery } from './bound-query.ts';

/**
 * Raises the statement timeout for the rest of the caller's transaction only, for bulk work known
 * to take longer than a request may (a large onboarding chunk, a board rebuilt from Postgres).
 */
export async function allowSlowStatements(tx: EntityManager, timeoutMs: number): Promise<void> {
  await boundQuery(tx, `SELECT set_config('statement_timeout', $1, true)`, [String(timeoutMs)]);
}
