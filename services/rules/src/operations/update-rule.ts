import { handle } from '@coin/bus';
import { rules } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { RulesDeps } from '../deps.ts';
import { ruleView, setRuleStatus } from '../domain/rules/rule-store.ts';

export function updateRuleHandler(deps: RulesDeps) {
  return handle(rules.updateRule, async ({ partnerId, params, body }) => {
    const rule = await setRuleStatus(deps.db.em, partnerId, params.id, body.status);
    if (!rule) throw AppError.notFound('rule not found');
    return ruleView(rule);
  });
}
