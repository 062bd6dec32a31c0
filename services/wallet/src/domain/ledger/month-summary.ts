import { boundQuery, type EntityManager } from '@coin/db';

interface DayRow {
  day: string;
  transfers: number;
  issued: string;
  redeemed: string;
}

/**
 * The partner's transfers in one UTC calendar month, per day: coins credited to users (issued)
 * and debited from them (redeemed). Every day of the month is listed, days without any included.
 * A pending transfer counts when posted (a credit to the wallet), not by its hold and void entries.
 */
export async function monthSummary(em: EntityManager, partnerId: string, year: number, month: number) {
  const from = new Date(Date.UTC(year, month - 1, 1));
  const to = new Date(Date.UTC(year, month, 1));
  const rows = await boundQuery<DayRow>(
    em,
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
            count(*)::int AS transfers,
            coalesce(sum(coins) FILTER (WHERE debit_or_credit = 'CR'), 0)::text AS issued,
            coalesce(sum(coins) FILTER (WHERE debit_or_credit = 'DE'), 0)::text AS redeemed
       FROM ledger_entries
      WHERE partner_id = $1 AND created_at >= $2 AND created_at < $3
        AND transaction_type NOT IN ('pending_transfer', 'pending_void', 'expiry')
      GROUP BY 1`,
    [partnerId, from, to],
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days = [];
  for (let d = new Date(from); d < to; d.setUTCDate(d.getUTCDate() + 1)) {
    const day = d.toISOString().slice(0, 10);
    const row = byDay.get(day);
    days.push({
      day,
      transfers: row?.transfers ?? 0,
      issued: Number(row?.issued ?? 0),
      redeemed: Number(row?.redeemed ?? 0),
    });
  }
  // Sums of 2-place decimals, rounded to cents once (adding floats would drift).
  const total = (key: 'issued' | 'redeemed') =>
    Math.round(rows.reduce((s, r) => s + Math.round(Number(r[key]) * 100), 0)) / 100;
  return {
    year,
    month,
    issued: total('issued'),
    redeemed: total('redeemed'),
    transfers: rows.reduce((s, r) => s + r.transfers, 0),
    days,
  };
}
