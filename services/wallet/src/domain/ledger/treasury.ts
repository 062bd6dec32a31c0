import type { wallet } from '@coin/contracts';
import { boundQuery, type EntityManager } from '@coin/db';

export interface Treasury {
  issued: number;
  redeemed: number;
  expired: number;
  outstanding: number;
  issuanceLimit: number | null;
  defaultValidity: wallet.PeriodValidity | null;
}

/**
 * The partner's treasury from its issuance account shards (kept with every batch) and its settings.
 * Outstanding is what the users hold: minus the shards' balance.
 */
export async function readTreasury(em: EntityManager, partnerId: string): Promise<Treasury> {
  const [row] = await boundQuery<{
    issued: string;
    redeemed: string;
    expired: string;
    outstanding: string;
    limit: string | null;
    validity: wallet.PeriodValidity | null;
  }>(
    em,
    `SELECT COALESCE(sum(a.issued), 0)::text AS issued, COALESCE(sum(a.redeemed), 0)::text AS redeemed,
            COALESCE(sum(a.expired), 0)::text AS expired, COALESCE(-sum(a.balance), 0)::text AS outstanding,
            (SELECT issuance_limit::text FROM wallet_treasuries WHERE partner_id = $1) AS limit,
            (SELECT default_validity FROM wallet_treasuries WHERE partner_id = $1) AS validity
       FROM accounts a WHERE a.partner_id = $1 AND a.kind = 'partner'`,
    [partnerId],
  );
  return {
    issued: Number(row.issued),
    redeemed: Number(row.redeemed),
    expired: Number(row.expired),
    outstanding: Number(row.outstanding),
    issuanceLimit: row.limit === null ? null : Number(row.limit),
    defaultValidity: row.validity,
  };
}

/**
 * Sets or clears the limit and the default validity (each only when given). Transfers already past
 * their check are not undone: a limit below what users hold refuses new issuance until redemptions
 * bring `outstanding` under it; a new default applies to credits from then on.
 */
export async function setTreasurySettings(
  em: EntityManager,
  partnerId: string,
  settings: { issuanceLimit?: number | null; defaultValidity?: wallet.PeriodValidity | null },
) {
  const limit = settings.issuanceLimit;
  await boundQuery(
    em,
    `INSERT INTO wallet_treasuries AS w (partner_id, issuance_limit, default_validity)
     VALUES ($1, $2::numeric, $3::jsonb)
     ON CONFLICT (partner_id) DO UPDATE
       SET issuance_limit = CASE WHEN $4 THEN EXCLUDED.issuance_limit ELSE w.issuance_limit END,
           default_validity = CASE WHEN $5 THEN EXCLUDED.default_validity ELSE w.default_validity END,
           updated_at = now()`,
    [
      partnerId,
      limit === undefined || limit === null ? null : limit.toFixed(2),
      settings.defaultValidity == null ? null : JSON.stringify(settings.defaultValidity),
      limit !== undefined,
      settings.defaultValidity !== undefined,
    ],
  );
}
