import type { rules } from '@coin/contracts';
import type { InferEntity } from '@mikro-orm/core';
import type { z } from 'zod';
import type { Rule } from '../entities.ts';

type RuleRow = InferEntity<typeof Rule>;

/** The specification's Rule: numbers as text, no owner. */
export function ruleView(rule: RuleRow): z.infer<typeof rules.ruleSchema> {
  return {
    id: rule.id,
    name: rule.name,
    coinValue: rule.coinValue,
    condition: rule.condition,
    maxNumberOfParticipant: String(rule.maxParticipants),
    status: rule.status as 'active' | 'inactive',
  };
}

/** As listed: with `userId`, the partner account that owns the rule. */
export function listedRuleView(rule: RuleRow): z.infer<typeof rules.listedRuleSchema> {
  return { ...ruleView(rule), userId: rule.partnerId };
}
