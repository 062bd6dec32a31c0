import { boundRow, type EntityManager } from '@coin/db';

export interface TierPolicy {
  windowDays: number;
  periodDays: number;
  downgrade: 'one_level' | 'reevaluate';
}

/** Until a partner sets one: a year's earnings, reviewed yearly, tiers re-evaluated. */
const DEFAULT_POLICY: TierPolicy = { windowDays: 365, periodDays: 365, downgrade: 'reevaluate' };

const COLUMNS = 'window_days AS "windowDays", period_days AS "periodDays", downgrade';

export async function policyOf(em: EntityManager, partnerId: string): Promise<TierPolicy> {
  const row = await boundRow<TierPolicy>(em, `SELECT ${COLUMNS} FROM tier_policies WHERE partner_id = $1`, [
    partnerId,
  ]);
  return row ?? DEFAULT_POLICY;
}

/** A new period applies to the reviews scheduled from then on; those already scheduled keep their time. */
export async function setPolicy(
  em: EntityManager,
  partnerId: string,
  policy: TierPolicy,
): Promise<TierPolicy> {
  const row = await boundRow<TierPolicy>(
    em,
    `INSERT INTO tier_policies (partner_id, window_days, period_days, downgrade) VALUES ($1, $2, $3, $4)
     ON CONFLICT (partner_id) DO UPDATE SET window_days = EXCLUDED.window_days,
       period_days = EXCLUDED.period_days, downgrade = EXCLUDED.downgrade, updated_at = clock_timestamp()
     RETURNING ${COLUMNS}`,
    [partnerId, policy.windowDays, policy.periodDays, policy.downgrade],
  );
  return row!;
}
