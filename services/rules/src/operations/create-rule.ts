import { handle } from '@coin/bus';
import { rules } from '@coin/contracts';
import type { RulesDeps } from '../deps.ts';
import { createRule, ruleView } from '../domain/rules/rule-store.ts';

export function createRuleHandler(deps: RulesDeps) {
  return handle(rules.createRule, async ({ partnerId, body }) => {
    const rule = await createRule(deps.db.em, partnerId, {
      name: body.name,
      coinValue: body.coinValue,
      condition: body.condition,
      maxParticipants: Number(body.maxNumberOfParticipant),
      limitTimes: body.userLimit?.times ?? null,
      limitPeriod: body.userLimit?.per ?? null,
      budget: body.budget ?? null,
      startsAt: body.startsAt ?? null,
      endsAt: body.endsAt ?? null,
    });
    return ruleView(rule);
  });
}
