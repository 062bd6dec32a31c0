import { callOperation, handle } from '@coin/bus';
import { onboarding, rules } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { RulesDeps } from '../deps.ts';
import { checkRewardKey } from '../domain/rewards/idempotency-keys.ts';
import { claimParticipation, findParticipation } from '../domain/rewards/participations.ts';
import { payParticipation } from '../domain/rewards/pay.ts';
import { findRuleByName } from '../domain/rules/rule-store.ts';

/**
 * Pays a user a rule's coins, once: the participation is recorded as pending (taking a place under
 * the cap) before the wallet is called, and marked paid with the ledger entry after. Asking again
 * for the same user and rule answers with the first payment (`isExisting: true`), or completes it if
 * it is still pending.
 */
export function rewardUserHandler(deps: RulesDeps) {
  return handle(rules.rewardUser, async ({ partnerId, body, idempotencyKey }, ctx) => {
    const em = deps.db.em;
    if (idempotencyKey) await checkRewardKey(em, partnerId, idempotencyKey, body);
    const rule = await findRuleByName(em, partnerId, body.ruleName);
    if (!rule) throw AppError.notFound(`rule ${body.ruleName} not found`);

    let participation = await findParticipation(em, rule.id, body.userId);
    let isExisting = participation !== undefined;
    if (!participation) {
      // Unknown users never take a place, not even for the time of the wallet's refusal.
      await callOperation(
        deps.nc,
        onboarding.getUser,
        { partnerId, body: { userId: body.userId } },
        { timeoutMs: deps.config.RULES_CALL_TIMEOUT_MS, requestId: ctx.requestId },
      );
      const claimed = await claimParticipation(
        em,
        rule,
        body.userId,
        deps.config.RULES_CALL_TIMEOUT_MS + deps.config.REWARD_RETRY_BASE_MS,
      );
      if (claimed.capReached) deps.relay.notify();
      participation = claimed.participation;
      isExisting = !claimed.created;
    }
    if (participation.status === 'paid') return { isExisting: true, coinsLedger: participation.coinsLedger! };
    const coinsLedger = await payParticipation(deps, participation, ctx.requestId);
    return { isExisting, coinsLedger };
  });
}
