import { handle } from '@coin/bus';
import { EVENT_SUBJECTS, rules } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { addToOutbox, auditEvent } from '@coin/events';
import type { RulesDeps } from '../deps.ts';
import { ruleView, setRuleStatus } from '../domain/rules/rule-store.ts';

/** The new status and its audit log entry commit together. */
export function updateRuleHandler(deps: RulesDeps) {
  return handle(rules.updateRule, async ({ partnerId, params, body, actor, clientIp }) => {
    const rule = await deps.db.em.fork().transactional(async (tx) => {
      const updated = await setRuleStatus(tx, partnerId, params.id, body.status);
      if (!updated) throw AppError.notFound('rule not found');
      await addToOutbox(
        tx,
        auditEvent(EVENT_SUBJECTS.rulesAudit, {
          partnerId,
          actor,
          clientIp,
          action: rules.updateRule.name,
          summary: `set the rule ${updated.name} ${body.status}`,
          details: { ruleId: updated.id, name: updated.name, status: body.status },
        }),
      );
      return updated;
    });
    deps.relay.notify();
    return ruleView(rule);
  });
}
