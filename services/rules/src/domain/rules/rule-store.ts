import { randomUUID } from 'node:crypto';
import type { rules } from '@coin/contracts';
import { boundPage, boundRow, type EntityManager, insertUnique, isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { z } from 'zod';

/**
 * A partner's reward rule. `participants` (pending + paid participations) is written only by the
 * conditional UPDATEs in `rewards/participations.ts`, which is what keeps the cap exact.
 */
export interface RuleRecord {
  id: string;
  partnerId: string;
  name: string;
  /** Exact decimal text, as stored. */
  coinValue: string;
  condition: string;
  maxParticipants: number;
  participants: number;
  status: 'active' | 'inactive';
  /** A limited rule pays a user up to `limitTimes` per `limitPeriod`; without, once. */
  limitTimes: number | null;
  limitPeriod: 'day' | 'week' | 'month' | null;
  /** Exact decimal text; `spent` (pending payments included) never exceeds it. */
  budget: string | null;
  spent: string;
  startsAt: string | null;
  endsAt: string | null;
}

const COLUMNS = `id, partner_id AS "partnerId", name, coin_value::text AS "coinValue", condition,
  max_participants AS "maxParticipants", participants, status, limit_times AS "limitTimes",
  limit_period AS "limitPeriod", budget::text AS budget, spent::text AS spent, starts_at AS "startsAt",
  ends_at AS "endsAt"`;

/** What a rule states beyond the fields of docs/specification.md ("Rule"), at creation. */
export type RuleLimits = Pick<RuleRecord, 'limitTimes' | 'limitPeriod' | 'budget' | 'startsAt' | 'endsAt'>;

/** The Rule of docs/specification.md ("Rule"): numbers as text, no owner. */
export function ruleView(rule: RuleRecord): z.infer<typeof rules.ruleSchema> {
  return {
    id: rule.id,
    name: rule.name,
    coinValue: rule.coinValue,
    condition: rule.condition,
    maxNumberOfParticipant: String(rule.maxParticipants),
    status: rule.status,
    ...(rule.limitTimes !== null &&
      rule.limitPeriod && { userLimit: { times: rule.limitTimes, per: rule.limitPeriod } }),
    ...(rule.budget !== null && { budget: rule.budget, spent: rule.spent }),
    ...(rule.startsAt !== null && { startsAt: isoTime(rule.startsAt) }),
    ...(rule.endsAt !== null && { endsAt: isoTime(rule.endsAt) }),
  };
}

/** As listed: with `userId`, the partner account that owns the rule. */
export function listedRuleView(rule: RuleRecord): z.infer<typeof rules.listedRuleSchema> {
  return { ...ruleView(rule), userId: rule.partnerId, participants: rule.participants };
}

/** A new rule is active; its name is unique per partner. */
export async function createRule(
  em: EntityManager,
  partnerId: string,
  rule: Pick<RuleRecord, 'name' | 'coinValue' | 'condition' | 'maxParticipants'> & RuleLimits,
): Promise<RuleRecord> {
  return insertUnique<RuleRecord>(
    em,
    `INSERT INTO rules (id, partner_id, name, coin_value, condition, max_participants, status, limit_times,
       limit_period, budget, starts_at, ends_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      partnerId,
      rule.name,
      rule.coinValue,
      rule.condition,
      rule.maxParticipants,
      rule.limitTimes,
      rule.limitPeriod,
      rule.budget,
      rule.startsAt,
      rule.endsAt,
    ],
    () => AppError.conflict(`a rule named ${rule.name} already exists`),
  );
}

/** A page of the partner's rules, newest first, optionally of one status, and how many there are. */
export async function rulesPage(
  em: EntityManager,
  partnerId: string,
  page: { limit: number; offset: number; status?: RuleRecord['status'] },
): Promise<{ rules: RuleRecord[]; count: number }> {
  const { rows, count } = await boundPage<RuleRecord>(
    em,
    {
      columns: COLUMNS,
      from: 'rules WHERE partner_id = $1 AND ($2::text IS NULL OR status = $2)',
      orderBy: 'created_at DESC, id DESC',
    },
    [partnerId, page.status ?? null],
    page,
  );
  return { rules: rows, count };
}

export async function findRuleByName(
  em: EntityManager,
  partnerId: string,
  name: string,
): Promise<RuleRecord | undefined> {
  return boundRow<RuleRecord>(em, `SELECT ${COLUMNS} FROM rules WHERE partner_id = $1 AND name = $2`, [
    partnerId,
    name,
  ]);
}

/** Deactivating stops new rewards; participations already pending are still paid. */
export async function setRuleStatus(
  em: EntityManager,
  partnerId: string,
  id: string,
  status: RuleRecord['status'],
): Promise<RuleRecord | undefined> {
  return boundRow<RuleRecord>(
    em,
    `UPDATE rules SET status = $3, updated_at = clock_timestamp() WHERE id = $1 AND partner_id = $2
     RETURNING ${COLUMNS}`,
    [id, partnerId, status],
  );
}
