import type { RulesDeps } from '../deps.ts';
import {
  PARTICIPATION_COLUMNS,
  type Participation,
  type ParticipationRow,
  toParticipation,
} from './participations.ts';
import { payParticipation } from './pay.ts';

const BATCH = 50;

export interface RewardRetrier {
  stop(): Promise<void>;
}

/**
 * Completes rewards left pending (the wallet was down or slow, or the service stopped mid-way). Due
 * rows are leased, not locked: the claim moves their next attempt into the future with exponential
 * backoff in the same statement, so replicas never work on the same row at once and no lock is held
 * during the wallet call. A pending reward is retried until the wallet pays or definitively refuses
 * it; the wallet's idempotency key makes a retry of an already paid transfer return that transfer.
 */
export function startRewardRetrier(deps: RulesDeps): RewardRetrier {
  const { REWARD_RETRY_POLL_MS, REWARD_RETRY_BASE_MS, REWARD_RETRY_MAX_MS } = deps.config;
  let stopped = false;
  let wake: (() => void) | undefined;

  async function claimDue(): Promise<Participation[]> {
    const rows = await deps.orm.em.fork().execute<ParticipationRow[]>(
      `WITH due AS (
         SELECT id FROM participations
          WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
          ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
       UPDATE participations p
          SET attempts = p.attempts + 1,
              next_attempt_at = clock_timestamp()
                + least(?::float8, ?::float8 * power(2, least(p.attempts, 30))) * interval '1 millisecond'
         FROM due, rules r
        WHERE p.id = due.id AND r.id = p.rule_id
       RETURNING ${PARTICIPATION_COLUMNS}`,
      [BATCH, REWARD_RETRY_MAX_MS, REWARD_RETRY_BASE_MS],
    );
    return rows.map(toParticipation);
  }

  async function runOnce(): Promise<number> {
    const due = await claimDue();
    await Promise.all(
      due.map((p) =>
        payParticipation(deps, p).then(
          () => deps.log.info({ participationId: p.id, ruleId: p.ruleId }, 'pending reward paid'),
          (err) => deps.log.warn({ err, participationId: p.id }, 'pending reward not paid'),
        ),
      ),
    );
    return due.length;
  }

  const loop = (async () => {
    while (!stopped) {
      let attempted = 0;
      try {
        attempted = await runOnce();
      } catch (err) {
        deps.log.warn({ err }, 'reward retrier pass failed; will retry');
      }
      if (attempted === BATCH || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, REWARD_RETRY_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
