import { boundQuery, boundRow } from '@coin/db';
import { type JobQueue, type JobWorker, startJobWorker } from '@coin/jobs';
import type { RulesDeps } from '../../deps.ts';
import {
  PARTICIPATION_COLUMNS,
  type ParticipationRow,
  type RewardTable,
  toParticipation,
} from './participations.ts';
import { payParticipation } from './pay.ts';

/** Rewards claimed but not yet paid by the wallet. */
export const rewardQueue: JobQueue = {
  name: 'reward-payment',
  table: 'participations',
  unfinished: "status = 'pending'",
  fairnessKey: 'partner_id',
};

/** The same, for the rewards of limited rules. */
export const limitedRewardQueue: JobQueue = {
  ...rewardQueue,
  name: 'limited-reward-payment',
  table: 'rule_rewards',
};

/**
 * Completes rewards left pending (the wallet was down or slow, or the service stopped mid-way)
 * through the `reward-payment` job queue: no lock is held during the wallet call, and the wallet's
 * idempotency key makes a retry of an already paid transfer return that transfer. A definitive
 * refusal releases the participation; a payment that keeps failing is parked after
 * REWARD_MAX_ATTEMPTS (more than a day by default), still holding its place under the cap.
 */
export function startRewardRetrier(deps: RulesDeps, queue: JobQueue): JobWorker {
  const table = queue.table as RewardTable;
  const { config, log } = deps;
  return startJobWorker({
    db: deps.db,
    log,
    service: 'rules',
    queue,
    concurrency: config.REWARD_RETRY_CONCURRENCY,
    perKeyConcurrency: Math.max(1, Math.floor(config.REWARD_RETRY_CONCURRENCY / 2)),
    leaseMs: config.RULES_CALL_TIMEOUT_MS * 2 + 5000,
    pollMs: config.REWARD_RETRY_POLL_MS,
    maxAttempts: config.REWARD_MAX_ATTEMPTS,
    backoff: { baseMs: config.REWARD_RETRY_BASE_MS, capMs: config.REWARD_RETRY_MAX_MS },
    async run(job) {
      const row = await boundRow<ParticipationRow>(
        deps.db.em.fork(),
        `SELECT ${PARTICIPATION_COLUMNS} FROM ${table} p JOIN rules r ON r.id = p.rule_id
          WHERE p.id = $1 AND p.status = 'pending'`,
        [job.id],
      );
      if (!row) return 'done';
      const participation = toParticipation(row, table);
      try {
        await payParticipation(deps, participation);
      } catch (err) {
        const released = await boundQuery(deps.db.em.fork(), `SELECT 1 FROM ${table} WHERE id = $1`, [
          job.id,
        ]);
        if (released.length === 0) {
          log.warn({ err, participationId: job.id }, 'pending reward refused by the wallet; place released');
          return 'done';
        }
        throw err;
      }
      log.info({ participationId: job.id, ruleId: participation.ruleId }, 'pending reward paid');
      return 'done';
    },
  });
}
