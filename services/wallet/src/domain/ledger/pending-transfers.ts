import type { wallet } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager, readSnapshot } from '@coin/db';

type PendingView = wallet.PendingTransferView;

const COLUMNS = `id, user_id, coins::text AS coins, status, expires_at, on_expiry, posted_coins::text AS posted_coins,
  post_entry_id, void_entry_id, resolved_by, created_at, resolved_at`;

const iso = (t: unknown) => (t === null ? null : new Date(t as string | Date).toISOString());

function viewOf(r: Record<string, unknown>): PendingView {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    coins: Number(r.coins),
    status: r.status as PendingView['status'],
    expiresAt: iso(r.expires_at),
    onExpiry: r.on_expiry as PendingView['onExpiry'],
    postedCoins: r.posted_coins === null ? null : Number(r.posted_coins),
    postEntryId: r.post_entry_id as string | null,
    voidEntryId: r.void_entry_id as string | null,
    resolvedBy: r.resolved_by as PendingView['resolvedBy'],
    createdAt: iso(r.created_at)!,
    resolvedAt: iso(r.resolved_at),
  };
}

/** One pending transfer of the partner, as it stands; null when it is not theirs. */
export async function findPending(
  em: EntityManager,
  partnerId: string,
  id: string,
): Promise<PendingView | null> {
  const row = await boundRow<Record<string, unknown>>(
    em,
    `SELECT ${COLUMNS} FROM pending_transfers WHERE id = $1 AND partner_id = $2`,
    [id, partnerId],
  );
  return row ? viewOf(row) : null;
}

/** A page of the partner's pending transfers, newest first, optionally one user's or one status. */
export async function listPending(
  em: EntityManager,
  partnerId: string,
  filter: { userId?: string; status?: string; limit: number; offset: number },
): Promise<{ rows: PendingView[]; count: number }> {
  const where = ['partner_id = $1'];
  const params: unknown[] = [partnerId];
  if (filter.userId) where.push(`user_id = $${params.push(filter.userId)}`);
  if (filter.status) where.push(`status = $${params.push(filter.status)}`);
  const clause = where.join(' AND ');
  return readSnapshot(em, async (tx) => {
    const rows = await boundQuery<Record<string, unknown>>(
      tx,
      `SELECT ${COLUMNS} FROM pending_transfers WHERE ${clause}
        ORDER BY created_at DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    const [total] = await boundQuery<{ count: number }>(
      tx,
      `SELECT count(*)::int AS count FROM pending_transfers WHERE ${clause}`,
      params,
    );
    return { rows: rows.map(viewOf), count: total.count };
  });
}

/** Pending transfers past their expiry and still pending, oldest expiry first. */
export async function duePending(
  em: EntityManager,
  limit: number,
): Promise<{ id: string; partner_id: string; user_id: string }[]> {
  return boundQuery(
    em,
    `SELECT id, partner_id, user_id FROM pending_transfers
      WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= clock_timestamp()
      ORDER BY expires_at LIMIT $1`,
    [limit],
  );
}
