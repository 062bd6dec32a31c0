import { handle } from '@coin/bus';
import { rules } from '@coin/contracts';
import type { RulesDeps } from '../deps.ts';
import { setTimeZone, timeZoneOf } from '../domain/rules/settings.ts';

export function getRuleSettingsHandler(deps: RulesDeps) {
  return handle(rules.getRuleSettings, async ({ partnerId }) => ({
    timeZone: await timeZoneOf(deps.db.em, partnerId),
  }));
}

export function setRuleSettingsHandler(deps: RulesDeps) {
  return handle(rules.setRuleSettings, async ({ partnerId, body }) => ({
    timeZone: await setTimeZone(deps.db.em, partnerId, body.timeZone),
  }));
}
