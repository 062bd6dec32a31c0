import { AppError } from '@coin/errors';
import { dbTimeouts } from './pool-metrics.ts';

/** pg-pool's message when no connection was free within `connectionTimeoutMillis`. */
const ACQUIRE_TIMEOUT = /timeout exceeded when trying to connect|connection timeout/i;
/** Postgres refused or dropped the connection: down, restarting, or not accepting connections. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03']);
const UNREACHABLE = /Connection terminated|not currently accepting connections/i;

/**
 * A wait on the database that ran out, or a database that cannot be reached, as the error the
 * caller sees: a cancelled statement (57014) is 504 SERVICE_TIMEOUT, no pooled connection in time
 * or no database is 503 SERVICE_UNAVAILABLE. Anything else is not the database's availability and
 * is left as it is (undefined).
 */
export function databaseFailure(err: unknown, service: string): AppError | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (code === '57014') {
    dbTimeouts.inc({ service, kind: 'statement' });
    return AppError.timeout(`${service} database did not answer in time`);
  }
  if (ACQUIRE_TIMEOUT.test(err.message)) {
    dbTimeouts.inc({ service, kind: 'acquire' });
    return AppError.unavailable(`${service} database is busy; try again`);
  }
  const unreachable = typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'));
  if (unreachable || UNREACHABLE.test(err.message))
    return AppError.unavailable(`${service} database is unavailable`);
  return undefined;
}
