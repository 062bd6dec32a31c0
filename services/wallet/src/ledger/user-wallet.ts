import { boundQuery, type EntityManager } from '@coin/db';
import { type EntryRecord, entryFromRow } from './entry-view.ts';

/** The user's balance; a user who never received coins has none yet, which reads as 0. */
export async function walletBalance(em: EntityManager, partnerId: string, userId: string): Promise<number> {
  const [row] = await boundQuery<{ balance: string }>(
    em,
    `SELECT balance FROM accounts WHERE partner_id = $1 AND kind = 'user' AND user_id = $2`,
    [partnerId, userId],
  );
  return Number(row?.balance ?? 0);
}

/** A page of the user's ledger entries, newest first, and how many there are in all. */
export async function historyPage(
  em: EntityManager,
  partnerId: string,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ entries: EntryRecord[]; count: number }> {
  const [rows, [total]] = await Promise.all([
    boundQuery<Record<string, unknown>>(
      em,
      `SELECT id, user_id, transaction_type, debit_or_credit, coins, narration, from_party, to_party,
              created_at, updated_at
         FROM ledger_entries WHERE partner_id = $1 AND user_id = $2
        ORDER BY seq DESC LIMIT $3 OFFSET $4`,
      [partnerId, userId, page.limit, page.offset],
    ),
    boundQuery<{ count: number }>(
      em,
      'SELECT count(*)::int AS count FROM ledger_entries WHERE partner_id = $1 AND user_id = $2',
      [partnerId, userId],
    ),
  ]);
  return { entries: rows.map(entryFromRow), count: total.count };
}
