import { callOperation } from '@coin/bus';
import {
  EVENT_SUBJECTS,
  RULE_REWARD_IDEMPOTENCY_PREFIX,
  type RuleRewardedEvent,
  wallet,
} from '@coin/contracts';
import { AppError } from '@coin/errors';
import { addToOutbox } from '@coin/events';
import type { RulesDeps } from '../../deps.ts';
import { releaseLimitedReward } from './limited-rewards.ts';
import {
  type CoinsLedger,
  findReward,
  markPaid,
  type Participation,
  releaseParticipation,
} from './participations.ts';

/**
 * The wallet's key for a reward: the same on every attempt, so a retry can never pay twice. A limited
 * rule's rewards of one user are told apart by their own id.
 */
function rewardIdempotencyKey(p: Pick<Participation, 'table' | 'id' | 'ruleId' | 'userId'>): string {
  const once = `${RULE_REWARD_IDEMPOTENCY_PREFIX}${p.ruleId}:${p.userId}`;
  return p.table === 'participations' ? once : `${once}:${p.id}`;
}

function release(deps: RulesDeps, p: Participation): Promise<void> {
  const em = deps.db.em.fork();
  return p.table === 'participations' ? releaseParticipation(em, p.id) : releaseLimitedReward(em, p.id);
}

/** Refusals that no retry can change: the participation is released instead of kept pending. */
function isDefinitiveRefusal(err: AppError): boolean {
  return err.status === 400 || err.status === 404 || err.status === 422;
}

async function recordPayment(
  deps: RulesDeps,
  p: Participation,
  coinsLedger: CoinsLedger,
): Promise<CoinsLedger> {
  const published = await deps.db.em.fork().transactional(async (tx) => {
    const paid = await markPaid(tx, p, coinsLedger);
    if (!paid) return false;
    const event: Omit<RuleRewardedEvent, 'eventId'> = {
      partnerId: p.partnerId,
      ruleId: p.ruleId,
      ruleName: p.ruleName,
      userId: p.userId,
      coins: p.coins,
      points: Number(p.coins),
      ledgerEntryId: coinsLedger.id,
      rewardedAt: paid.paidAt,
    };
    await addToOutbox(tx, { subject: EVENT_SUBJECTS.ruleRewarded, payload: event });
    return true;
  });
  if (published) {
    deps.relay.notify();
    return coinsLedger;
  }
  // Another attempt (a concurrent request or the retrier) recorded it first: answer with its entry.
  const stored = await findReward(deps.db.em.fork(), p.table, p.id);
  return stored?.coinsLedger ?? coinsLedger;
}

/**
 * Pays a pending participation through the wallet and records the ledger entry. A definitive
 * refusal releases the participation (and its place under the cap) and is thrown as is; any other
 * failure (wallet down, slow, busy with the same key) leaves it pending for the retrier and is
 * thrown saying so.
 */
export async function payParticipation(
  deps: RulesDeps,
  p: Participation,
  requestId?: string,
): Promise<CoinsLedger> {
  let coinsLedger: CoinsLedger;
  try {
    const paid = await callOperation(
      deps.nc,
      wallet.transferToUser,
      {
        partnerId: p.partnerId,
        body: { userId: p.userId, coins: Number(p.coins), narration: `reward: ${p.ruleName}` },
        idempotencyKey: rewardIdempotencyKey(p),
      },
      { timeoutMs: deps.config.RULES_CALL_TIMEOUT_MS, requestId },
    );
    coinsLedger = paid.coinsLedger;
  } catch (err) {
    const appErr = err instanceof AppError ? err : AppError.internal();
    if (isDefinitiveRefusal(appErr)) {
      await release(deps, p);
      throw appErr;
    }
    throw new AppError(appErr.status, {
      ...appErr.details,
      error: `${appErr.details.error}; the reward is pending and will be paid automatically`,
    });
  }
  return recordPayment(deps, p, coinsLedger);
}
