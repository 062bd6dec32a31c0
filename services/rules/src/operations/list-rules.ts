import { handle } from '@coin/bus';
import { paginate, rules } from '@coin/contracts';
import type { RulesDeps } from '../deps.ts';
import { Rule } from '../entities.ts';
import { listedRuleView } from './rule-view.ts';

export function listRulesHandler(deps: RulesDeps) {
  return handle(rules.listRules, async ({ partnerId, query }) => {
    const { page, limit, status } = query;
    const [rows, count] = await deps.orm.em.findAndCount(
      Rule,
      { partnerId: partnerId!, ...(status ? { status } : {}) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset: (page - 1) * limit },
    );
    return { data: rows.map(listedRuleView), ...paginate(count, page, limit) };
  });
}
