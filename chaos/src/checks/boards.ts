import { apiClient } from '@coin/testing';
import { wholeCoinBoard } from '../../../e2e/support/leaderboard.ts';
import type { Books } from '../books.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, cents, check, differences } from './check.ts';

/**
 * The coin board of the month equals the month's credits in the ledger, user by user: as served
 * (from the Redis index) and as the leaderboard service keeps it in Postgres. A reversed credit
 * counts on no board, and a reversal (even of a debit, which is a CR entry) is no earning, nor is a
 * hold (a pending transfer's coins count once posted).
 */
export async function boardChecks(
  books: Books,
  world: PartnerWorld[],
  gatewayUrl: string,
): Promise<CheckResult[]> {
  const now = new Date();
  const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
  const board = `coins:${year}-${String(month).padStart(2, '0')}`;
  const credits = await books.query<{ partner_id: string; user_id: string; total: string }>(
    'wallet',
    `SELECT partner_id, user_id, sum(coins)::text AS total FROM ledger_entries
      WHERE debit_or_credit = 'CR' AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
        AND transaction_type NOT IN ('reversal', 'pending_transfer')
        AND NOT EXISTS (SELECT 1 FROM ledger_reversals r WHERE r.original_id = ledger_entries.id)
      GROUP BY partner_id, user_id`,
  );
  const stored = await books.query<{ partner_id: string; user_id: string; amount: string }>(
    'leaderboard',
    'SELECT partner_id, user_id, amount::text FROM standings WHERE board = $1',
    [board],
  );
  const api = apiClient(gatewayUrl);
  const served: string[] = [];
  const kept: string[] = [];
  let total = 0n;
  for (const w of world) {
    const expected = new Map(
      credits.filter((c) => c.partner_id === w.partnerId).map((c) => [c.user_id, cents(c.total)]),
    );
    for (const v of expected.values()) total += v;
    const index = await wholeCoinBoard(api, w.token, year, month);
    served.push(
      ...differences('served coins of', expected, new Map(index.map((e) => [e.userId, cents(e.coins)]))),
    );
    const rows = stored.filter((s) => s.partner_id === w.partnerId);
    kept.push(
      ...differences('stored coins of', expected, new Map(rows.map((s) => [s.user_id, cents(s.amount)]))),
    );
  }
  const figure = `${credits.length} users, ${total / 100n}.${String(total % 100n).padStart(2, '0')} coins credited`;
  return [
    check('coin board (Redis) equals the month credits', figure, served),
    check('coin board (Postgres) equals the month credits', figure, kept),
  ];
}
