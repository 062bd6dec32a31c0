import type { Books } from './books.ts';

/**
 * Test-only (CHAOS_SABOTAGE=skip-partner-posting): makes one credit look as if the wallet had
 * written it without its partner posting, the way a broken transfer function would, so a run can
 * show the final read catches it. Runs on the run's own database only, after the system is quiet.
 */
export async function skipPartnerPosting(books: Books): Promise<string> {
  const client = await books.connect('wallet');
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ entry_id: string; account_id: string; amount: string }>(
      `SELECT p.entry_id, p.account_id::text, p.amount::text FROM postings p
         JOIN accounts a ON a.id = p.account_id
         JOIN ledger_entries e ON e.id = p.entry_id
        WHERE a.kind = 'partner' AND e.debit_or_credit = 'CR'
        ORDER BY e.seq LIMIT 1`,
    );
    if (rows.length === 0) throw new Error('sabotage: no credit to break');
    const [{ entry_id, account_id, amount }] = rows;
    await client.query('DELETE FROM postings WHERE entry_id = $1 AND account_id = $2', [
      entry_id,
      account_id,
    ]);
    await client.query('UPDATE accounts SET balance = balance - $2::numeric WHERE id = $1', [
      account_id,
      amount,
    ]);
    await client.query('COMMIT');
    return `entry ${entry_id} lost its partner posting of ${amount}`;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
