import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { rules } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { RulesDeps } from '../deps.ts';
import { Rule } from '../entities.ts';
import { ruleView } from './rule-view.ts';

/** Postgres keeps a numeric's scale but not its leading zeros: answer with what is stored. */
function canonicalDecimal(text: string): string {
  return text.replace(/^0+(?=\d)/, '');
}

export function createRuleHandler(deps: RulesDeps) {
  return handle(rules.createRule, async ({ partnerId, body }) => {
    const em = deps.orm.em;
    const rule = em.create(Rule, {
      id: randomUUID(),
      partnerId: partnerId!,
      name: body.name,
      coinValue: canonicalDecimal(body.coinValue),
      condition: body.condition,
      maxParticipants: Number(body.maxNumberOfParticipant),
      participants: 0,
      status: 'active',
    });
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) {
        throw AppError.conflict(`a rule named ${body.name} already exists`);
      }
      throw err;
    }
    return ruleView(rule);
  });
}
