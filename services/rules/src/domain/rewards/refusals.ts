import { boundRow, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import type { RuleRecord } from '../rules/rule-store.ts';

const PERIOD_WORDS = {
  day: ['DAILY', 'day'],
  week: ['WEEKLY', 'week'],
  month: ['MONTHLY', 'month'],
} as const;

/** The refusal of a user at a limited rule's limit: the code names the period. */
export function limitReached(rule: Pick<RuleRecord, 'name' | 'limitTimes' | 'limitPeriod'>): AppError {
  const [code, word] = PERIOD_WORDS[rule.limitPeriod ?? 'day'];
  return AppError.unprocessable(
    `RULE_${code}_LIMIT_REACHED`,
    `rule ${rule.name} has already rewarded this user ${rule.limitTimes} time(s) this ${word}`,
  );
}

/**
 * Refuses a reward whose time (`occurredAt`, or now) is outside the rule's validity window. The window
 * never changes after creation, so reading it before the claim is exact.
 */
export function checkWindow(rule: Pick<RuleRecord, 'name' | 'startsAt' | 'endsAt'>, at: Date): void {
  if (rule.startsAt !== null && at < new Date(rule.startsAt))
    throw AppError.unprocessable(
      'RULE_NOT_STARTED',
      `rule ${rule.name} pays from ${new Date(rule.startsAt).toISOString()}`,
    );
  if (rule.endsAt !== null && at >= new Date(rule.endsAt))
    throw AppError.unprocessable(
      'RULE_ENDED',
      `rule ${rule.name} ended at ${new Date(rule.endsAt).toISOString()}`,
    );
}

/**
 * Why the rule's conditional update took nothing, read in the claim's transaction after it: the rule
 * is inactive, its cap is full (for a user new to it), or its budget cannot pay one more reward.
 */
export async function refusalOf(
  tx: EntityManager,
  rule: { id: string; name: string },
  newUser: boolean,
): Promise<AppError> {
  const now = await boundRow<{ status: string; full: boolean }>(
    tx,
    `SELECT status, participants >= max_participants AS full FROM rules WHERE id = $1`,
    [rule.id],
  );
  if (now?.status !== 'active')
    return AppError.unprocessable('RULE_INACTIVE', `rule ${rule.name} is inactive`);
  if (newUser && now.full)
    return AppError.unprocessable('RULE_CAP_REACHED', `rule ${rule.name} has reached its participant cap`);
  return AppError.unprocessable('RULE_BUDGET_EXHAUSTED', `rule ${rule.name} has spent its budget`);
}
