import { boundQuery, boundRow, type EntityManager, readSnapshot } from '@coin/db';
import { type EntryRecord, entryFromRow } from './entry-view.ts';

/**
 * The user's balances: what the wallet holds (`available`, less lots already past their expiry that
 * the expiry job has not reached yet: no debit can spend them) and what pending transfers hold for
 * the user (`pending`). A user who never received coins has neither yet, which reads as 0.
 */
export async function walletBalances(
  em: EntityManager,
  partnerId: string,
  userId: string,
): Promise<{ available: number; pending: number }> {
  const row = await boundRow<{ available: string | null; pending: string | null }>(
    em,
    `SELECT (SELECT balance FROM accounts WHERE partner_id = $1 AND kind = 'user' AND user_id = $2)
              - (SELECT COALESCE(sum(remaining), 0) FROM credit_lots WHERE partner_id = $1 AND user_id = $2
                   AND remaining > 0 AND expires_at <= clock_timestamp()) AS available,
            (SELECT balance FROM accounts WHERE partner_id = $1 AND kind = 'hold' AND user_id = $2) AS pending`,
    [partnerId, userId],
  );
  return { available: Number(row?.available ?? 0), pending: Number(row?.pending ?? 0) };
}

const ENTRY_COLUMNS = `e.id, e.seq::text AS seq, e.user_id, e.transaction_type, e.debit_or_credit, e.coins,
  e.narration, e.from_party, e.to_party, e.created_at, e.updated_at, e.balance_after,
  EXISTS (SELECT 1 FROM ledger_reversals r WHERE r.original_id = e.id) AS reversed,
  (SELECT l.expires_at FROM credit_lots l WHERE l.id = e.id) AS expires_at`;

/** One ledger entry of a partner, with whether it has been reversed; null when it is not theirs. */
export async function findEntry(
  em: EntityManager,
  partnerId: string,
  entryId: string,
): Promise<EntryRecord | null> {
  const row = await boundRow<Record<string, unknown>>(
    em,
    `SELECT ${ENTRY_COLUMNS} FROM ledger_entries e WHERE e.id = $1 AND e.partner_id = $2`,
    [entryId, partnerId],
  );
  return row ? entryFromRow(row) : null;
}

/**
 * A page of the user's ledger entries, newest first, how many there are in all and the cursor of
 * the next page. The cursor is the last entry's `seq`: a user's entries get their `seq` while the
 * batch holds the user's wallet row, so they become visible in `seq` order and a walk below a
 * cursor sees every entry once, whatever arrives meanwhile (new entries land above it).
 */
export async function historyPage(
  em: EntityManager,
  partnerId: string,
  userId: string,
  page: { limit: number; offset: number; before?: string },
): Promise<{ entries: EntryRecord[]; count: number; nextCursor: string | null }> {
  const { rows, count } = await readSnapshot(em, async (tx) => {
    const rows =
      page.before === undefined
        ? await boundQuery<Record<string, unknown>>(
            tx,
            `SELECT ${ENTRY_COLUMNS} FROM ledger_entries e WHERE e.partner_id = $1 AND e.user_id = $2
              ORDER BY e.seq DESC LIMIT $3 OFFSET $4`,
            [partnerId, userId, page.limit + 1, page.offset],
          )
        : await boundQuery<Record<string, unknown>>(
            tx,
            `SELECT ${ENTRY_COLUMNS} FROM ledger_entries e
              WHERE e.partner_id = $1 AND e.user_id = $2 AND e.seq < $3::bigint
              ORDER BY e.seq DESC LIMIT $4`,
            [partnerId, userId, page.before, page.limit + 1],
          );
    const [total] = await boundQuery<{ count: number }>(
      tx,
      'SELECT count(*)::int AS count FROM ledger_entries WHERE partner_id = $1 AND user_id = $2',
      [partnerId, userId],
    );
    return { rows, count: total.count };
  });
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return {
    entries: shown.map(entryFromRow),
    count,
    nextCursor: more ? (shown.at(-1)!.seq as string) : null,
  };
}
