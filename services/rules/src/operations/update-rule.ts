import { handle } from '@coin/bus';
import { rules } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { RulesDeps } from '../deps.ts';
import { Rule } from '../entities.ts';
import { ruleView } from './rule-view.ts';

/** Deactivating stops new rewards; participations already pending are still paid. */
export function updateRuleHandler(deps: RulesDeps) {
  return handle(rules.updateRule, async ({ partnerId, params, body }) => {
    const em = deps.orm.em;
    const rule = await em.findOne(Rule, { id: params.id, partnerId: partnerId! });
    if (!rule) throw AppError.notFound('rule not found');
    rule.status = body.status;
    await em.flush();
    return ruleView(rule);
  });
}
