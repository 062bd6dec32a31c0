import { handle } from '@coin/bus';
import { paginate, rules } from '@coin/contracts';
import type { RulesDeps } from '../deps.ts';
import { listedRuleView, rulesPage } from '../domain/rules/rule-store.ts';

export function listRulesHandler(deps: RulesDeps) {
  return handle(rules.listRules, async ({ partnerId, query }) => {
    const { page, limit, status } = query;
    const found = await rulesPage(deps.db.em, partnerId, { limit, offset: (page - 1) * limit, status });
    return { data: found.rules.map(listedRuleView), ...paginate(found.count, page, limit) };
  });
}
