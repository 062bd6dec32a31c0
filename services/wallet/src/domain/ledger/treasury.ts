import { boundQuery, type EntityManager } from '@coin/db';

export interface Treasury {
  issued: number;
  redeemed: number;
  outstanding: number;
  issuanceLimit: number | null;
}

/**
 * The partner's treasury from its issuance account shards (kept with every batch) and its limit.
 * Outstanding is what the users hold: minus the shards' balance.
 */
export async function readTreasury(em: EntityManager, partnerId: string): Promise<Treasury> {
  const [row] = await boundQuery<{
    issued: string;
    redeemed: string;
    outstanding: string;
    limit: string | null;
  }>(
    em,
    `SELECT COALESCE(sum(a.issued), 0)::text AS issued, COALESCE(sum(a.redeemed), 0)::text AS redeemed,
            COALESCE(-sum(a.balance), 0)::text AS outstanding,
            (SELECT issuance_limit::text FROM wallet_treasuries WHERE partner_id = $1) AS limit
       FROM accounts a WHERE a.partner_id = $1 AND a.kind = 'partner'`,
    [partnerId],
  );
  return {
    issued: Number(row.issued),
    redeemed: Number(row.redeemed),
    outstanding: Number(row.outstanding),
    issuanceLimit: row.limit === null ? null : Number(row.limit),
  };
}

/**
 * Sets or clears the limit. Transfers already past their check are not undone: a limit below what
 * users hold refuses new issuance until redemptions bring `outstanding` under it.
 */
export async function setIssuanceLimit(em: EntityManager, partnerId: string, limit: number | null) {
  await boundQuery(
    em,
    `INSERT INTO wallet_treasuries (partner_id, issuance_limit) VALUES ($1, $2::numeric)
     ON CONFLICT (partner_id) DO UPDATE SET issuance_limit = EXCLUDED.issuance_limit, updated_at = now()`,
    [partnerId, limit === null ? null : limit.toFixed(2)],
  );
}
