import { callOperation, handle } from '@coin/bus';
import { onboarding, rules } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { RulesDeps } from '../deps.ts';
import { checkRewardKey } from '../domain/rewards/idempotency-keys.ts';
import { claimLimitedReward, rewardOfKey } from '../domain/rewards/limited-rewards.ts';
import {
  claimParticipation,
  findParticipation,
  type Participation,
} from '../domain/rewards/participations.ts';
import { payParticipation } from '../domain/rewards/pay.ts';
import { checkWindow } from '../domain/rewards/refusals.ts';
import { findRuleByName, type RuleRecord } from '../domain/rules/rule-store.ts';

/**
 * Pays a user a rule's coins: once per user for a rule without a limit, up to the limit per period
 * for a limited one. The reward is recorded as pending (taking its place under the cap, its count in
 * the period and its coins against the budget) before the wallet is called, and marked paid with the
 * ledger entry after. Asking again for the same reward (the same user and rule without a limit, the
 * same Idempotency-Key with one) answers with the first payment (`isExisting: true`), or completes it
 * if it is still pending.
 */
export function rewardUserHandler(deps: RulesDeps) {
  return handle(rules.rewardUser, async ({ partnerId, body, idempotencyKey }, ctx) => {
    const em = deps.db.em;
    if (idempotencyKey) await checkRewardKey(em, partnerId, idempotencyKey, body);
    const rule = await findRuleByName(em, partnerId, body.ruleName);
    if (!rule) throw AppError.notFound(`rule ${body.ruleName} not found`);

    const known =
      rule.limitTimes === null
        ? await findParticipation(em, rule.id, body.userId)
        : idempotencyKey
          ? await rewardOfKey(em, partnerId, idempotencyKey)
          : undefined;
    let participation: Participation;
    let isExisting = known !== undefined;
    if (known) participation = known;
    else {
      checkWindow(rule, body.occurredAt ? new Date(body.occurredAt) : new Date());
      // Unknown users never take a place, not even for the time of the wallet's refusal.
      await callOperation(
        deps.nc,
        onboarding.getUser,
        { partnerId, body: { userId: body.userId } },
        { timeoutMs: deps.config.RULES_CALL_TIMEOUT_MS, requestId: ctx.requestId },
      );
      const claimed = await claim(deps, rule, body, idempotencyKey);
      if (claimed.capReached) deps.relay.notify();
      participation = claimed.participation;
      isExisting = !claimed.created;
    }
    if (participation.status === 'paid') return { isExisting: true, coinsLedger: participation.coinsLedger! };
    const coinsLedger = await payParticipation(deps, participation, ctx.requestId);
    return { isExisting, coinsLedger };
  });
}

async function claim(
  deps: RulesDeps,
  rule: RuleRecord,
  body: { userId: string; occurredAt?: string },
  key: string | undefined,
): Promise<{ participation: Participation; created: boolean; capReached: boolean }> {
  const firstRetryInMs = deps.config.RULES_CALL_TIMEOUT_MS + deps.config.REWARD_RETRY_BASE_MS;
  if (rule.limitTimes === null) return claimParticipation(deps.db.em, rule, body.userId, firstRetryInMs);
  const claimed = await claimLimitedReward(deps.db.em, rule, {
    userId: body.userId,
    occurredAt: body.occurredAt,
    key,
    firstRetryInMs,
  });
  return { participation: claimed.reward, created: claimed.created, capReached: claimed.capReached };
}
