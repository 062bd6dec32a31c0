import { randomUUID } from 'node:crypto';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import type { RuleRecord } from '../rules/rule-store.ts';
import { countClaim, findReward, type Participation } from './participations.ts';
import { limitReached } from './refusals.ts';

type LimitedRule = Pick<RuleRecord, 'id' | 'partnerId' | 'name' | 'limitTimes' | 'limitPeriod'>;

/** The reward a partner's Idempotency-Key already made on a limited rule, if it still exists. */
export async function rewardOfKey(
  em: EntityManager,
  partnerId: string,
  key: string,
): Promise<Participation | undefined> {
  const row = await boundRow<{ rewardId: string | null }>(
    em,
    'SELECT reward_id AS "rewardId" FROM reward_keys WHERE partner_id = $1 AND idempotency_key = $2',
    [partnerId, key],
  );
  return row?.rewardId ? findReward(em, 'rule_rewards', row.rewardId) : undefined;
}

/**
 * Makes the partner's key name the new reward, under the key row's lock, unless it names one that
 * exists. The lock's wait returns the row as the first claim committed it, and the reward is looked up
 * by a statement of its own, which sees that commit (a condition of the locking statement itself would
 * be read on its older snapshot, and miss the reward).
 */
async function takeKey(tx: EntityManager, partnerId: string, key: string, id: string): Promise<boolean> {
  const row = await boundRow<{ rewardId: string | null }>(
    tx,
    `SELECT reward_id AS "rewardId" FROM reward_keys WHERE partner_id = $1 AND idempotency_key = $2 FOR UPDATE`,
    [partnerId, key],
  );
  if (row?.rewardId && (await findReward(tx, 'rule_rewards', row.rewardId))) return false;
  await boundQuery(
    tx,
    'UPDATE reward_keys SET reward_id = $3 WHERE partner_id = $1 AND idempotency_key = $2',
    [partnerId, key, id],
  );
  return true;
}

/**
 * Claims one more reward of a limited rule for the user, in one transaction, locking in this order:
 * the partner's key row (one key, one reward), the user's count in the period that holds the reward's
 * time (`occurredAt`, or now) in the partner's time zone, raised only below the limit, the user's place
 * under the cap (taken by a user's first reward), then the rule's counters (`countClaim`). Concurrent
 * claims queue on those rows, so the limit, the cap and the budget are exact. Returns the key's
 * existing reward instead when another request with the same key made one first.
 */
export async function claimLimitedReward(
  em: EntityManager,
  rule: LimitedRule,
  claim: { userId: string; occurredAt?: string; key?: string; firstRetryInMs: number },
): Promise<{ reward: Participation; created: boolean; capReached: boolean }> {
  const id = randomUUID();
  const outcome = await em.transactional(async (tx) => {
    if (claim.key && !(await takeKey(tx, rule.partnerId, claim.key, id))) return { existing: true as const };
    const period = await boundRow<{ periodStart: string }>(
      tx,
      `INSERT INTO rule_user_periods (rule_id, user_id, period_start, times)
       SELECT $1, $2, date_trunc($3, coalesce($4::timestamptz, clock_timestamp()),
                coalesce((SELECT time_zone FROM partner_settings WHERE partner_id = $5), 'UTC')), 1
       ON CONFLICT (rule_id, user_id, period_start) DO UPDATE SET times = rule_user_periods.times + 1
         WHERE rule_user_periods.times < $6
       RETURNING period_start AS "periodStart"`,
      [rule.id, claim.userId, rule.limitPeriod, claim.occurredAt ?? null, rule.partnerId, rule.limitTimes],
    );
    if (!period) throw limitReached(rule);
    const member = await boundQuery(
      tx,
      `INSERT INTO rule_members (rule_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
      [rule.id, claim.userId],
    );
    const counted = await countClaim(tx, rule, member.length === 1);
    await boundQuery(
      tx,
      `INSERT INTO rule_rewards (id, partner_id, rule_id, user_id, coins, period_start, status, next_attempt_at)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, coin_value, $5::timestamptz, 'pending',
              clock_timestamp() + $6::float8 * interval '1 millisecond'
         FROM rules WHERE id = $3`,
      [id, rule.partnerId, rule.id, claim.userId, period.periodStart, claim.firstRetryInMs],
    );
    return { existing: false as const, capReached: counted.full };
  });
  if (outcome.existing) {
    const reward = await rewardOfKey(em, rule.partnerId, claim.key!);
    if (!reward)
      throw AppError.conflict('the same reward is being made right now', 'IDEMPOTENCY_IN_PROGRESS');
    return { reward, created: false, capReached: false };
  }
  const reward = await findReward(em, 'rule_rewards', id);
  if (!reward) throw AppError.internal('reward vanished after its claim');
  return { reward, created: true, capReached: outcome.capReached };
}

/**
 * Gives back what a pending reward of a limited rule took, after the wallet refused it for good: its
 * count in its period, its coins against the budget, and the user's place under the cap when the
 * user has no other reward of the rule. Locks in the claim's order.
 */
export async function releaseLimitedReward(em: EntityManager, rewardId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const row = await boundRow<{ ruleId: string; userId: string; periodStart: string; coins: string }>(
      tx,
      `DELETE FROM rule_rewards WHERE id = $1 AND status = 'pending'
       RETURNING rule_id AS "ruleId", user_id AS "userId", period_start AS "periodStart", coins::text AS coins`,
      [rewardId],
    );
    if (!row) return;
    await boundQuery(
      tx,
      `UPDATE rule_user_periods SET times = times - 1
        WHERE rule_id = $1 AND user_id = $2 AND period_start = $3::timestamptz AND times > 0`,
      [row.ruleId, row.userId, row.periodStart],
    );
    const left = await boundQuery(
      tx,
      `DELETE FROM rule_members m WHERE rule_id = $1 AND user_id = $2
          AND NOT EXISTS (SELECT 1 FROM rule_rewards r WHERE r.rule_id = m.rule_id AND r.user_id = m.user_id)
        RETURNING 1`,
      [row.ruleId, row.userId],
    );
    await boundQuery(
      tx,
      `UPDATE rules SET participants = participants - $2::int, spent = greatest(spent - $3::numeric, 0)
        WHERE id = $1`,
      [row.ruleId, left.length, row.coins],
    );
  });
}
