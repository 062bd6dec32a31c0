import { boundQuery, type EntityManager } from '@coin/db';

/** Users with credit lots past their expiry and not expired yet, the longest due first. */
export async function dueLotHolders(
  em: EntityManager,
  limit: number,
): Promise<{ partnerId: string; userId: string }[]> {
  const rows = await boundQuery<{ partner_id: string; user_id: string }>(
    em,
    `SELECT partner_id, user_id FROM credit_lots
      WHERE remaining > 0 AND expires_at <= clock_timestamp() ORDER BY expires_at LIMIT $1`,
    [limit],
  );
  const seen = new Map(rows.map((r) => [`${r.partner_id}/${r.user_id}`, r]));
  return [...seen.values()].map((r) => ({ partnerId: r.partner_id, userId: r.user_id }));
}

/** What a user's open lots will take away, by expiry time, soonest first (at most `limit` times). */
export async function expiringCoins(
  em: EntityManager,
  partnerId: string,
  userId: string,
  limit = 10,
): Promise<{ coins: number; expiresAt: string }[]> {
  const rows = await boundQuery<{ coins: string; expires_at: Date }>(
    em,
    `SELECT sum(remaining)::text AS coins, expires_at FROM credit_lots
      WHERE partner_id = $1 AND user_id = $2 AND remaining > 0 AND expires_at > clock_timestamp()
      GROUP BY expires_at ORDER BY expires_at LIMIT $3`,
    [partnerId, userId, limit],
  );
  return rows.map((r) => ({ coins: Number(r.coins), expiresAt: new Date(r.expires_at).toISOString() }));
}

/**
 * Marks the open lots that expire within `days` and were not announced yet, and writes one
 * coinsExpiring event per user for them, in one statement: a lot is announced once, whichever replica
 * gets it (SKIP LOCKED: two passes at once take different lots). Answers how many users were told.
 */
export async function announceExpiringLots(em: EntityManager, days: number, limit: number): Promise<number> {
  const [row] = await boundQuery<{ users: number }>(
    em,
    `WITH due AS (
       SELECT id FROM credit_lots
        WHERE remaining > 0 AND warned_at IS NULL AND expires_at > clock_timestamp()
          AND expires_at <= clock_timestamp() + make_interval(days => $1::int)
        ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED),
     warned AS (
       UPDATE credit_lots l SET warned_at = clock_timestamp() FROM due WHERE l.id = due.id
       RETURNING l.partner_id, l.user_id, l.id, l.remaining, l.expires_at),
     told AS (
       SELECT wallet_add_event('events.wallet.coinsExpiring', jsonb_build_object(
                'partnerId', partner_id, 'userId', user_id, 'coins', sum(remaining)::text,
                'expiresAt', wallet_iso(min(expires_at)),
                'lots', jsonb_agg(jsonb_build_object('lotId', id, 'coins', remaining::text,
                                                     'expiresAt', wallet_iso(expires_at)) ORDER BY expires_at, id),
                'createdAt', wallet_iso(clock_timestamp())), '{}'::jsonb)
         FROM warned GROUP BY partner_id, user_id)
     SELECT count(*)::int AS users FROM told`,
    [days, limit],
  );
  return row.users;
}
