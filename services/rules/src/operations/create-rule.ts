import { handle } from '@coin/bus';
import { EVENT_SUBJECTS, rules } from '@coin/contracts';
import { addToOutbox, auditEvent } from '@coin/events';
import type { RulesDeps } from '../deps.ts';
import { createRule, ruleView } from '../domain/rules/rule-store.ts';

/** The rule and its audit log entry commit together. */
export function createRuleHandler(deps: RulesDeps) {
  return handle(rules.createRule, async ({ partnerId, body, actor, clientIp }) => {
    const rule = await deps.db.em.fork().transactional(async (tx) => {
      const created = await createRule(tx, partnerId, {
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
      await addToOutbox(
        tx,
        auditEvent(EVENT_SUBJECTS.rulesAudit, {
          partnerId,
          actor,
          clientIp,
          action: rules.createRule.name,
          summary: `created the rule ${created.name} (${created.coinValue} coins, at most ${created.maxParticipants} users)`,
          details: { ruleId: created.id, ...body },
        }),
      );
      return created;
    });
    deps.relay.notify();
    return ruleView(rule);
  });
}
