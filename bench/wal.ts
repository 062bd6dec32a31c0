/**
 * WAL the Postgres cluster wrote over a window, from `pg_current_wal_lsn()`: every database's, as the
 * WAL is one for the cluster. Per request, it is what each request made Postgres log (and CRC, copy
 * and flush); the same reading around pgbench gives its transaction's figure to compare with.
 */
import { databaseUrlFor } from '@coin/config';
import { queryDatabase } from '@coin/testing';

async function currentLsn(): Promise<string> {
  const url = new URL(databaseUrlFor('bench', process.env));
  url.pathname = '/postgres';
  const [{ lsn }] = await queryDatabase<{ lsn: string }>(
    url.toString(),
    'SELECT pg_current_wal_lsn()::text AS lsn',
  );
  return lsn;
}

/** An LSN's position in bytes ("16/B374D848" → 0x16B374D848). */
const bytesAt = (lsn: string) => {
  const [high, low] = lsn.split('/');
  return Number.parseInt(high, 16) * 2 ** 32 + Number.parseInt(low, 16);
};

/** Runs `fn` and answers its result with the bytes of WAL the cluster wrote meanwhile. */
export async function walDuring<T>(fn: () => Promise<T>): Promise<{ result: T; walBytes: number }> {
  const before = await currentLsn();
  const result = await fn();
  return { result, walBytes: bytesAt(await currentLsn()) - bytesAt(before) };
}
