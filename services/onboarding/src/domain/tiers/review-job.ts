import type { Database, EntityManager } from '@coin/db';
import { boundRow } from '@coin/db';
import type { OutboxRelay } from '@coin/events';
import { type JobQueue, type JobWorker, startJobWorker } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { earnedInWindow, type RankedTier, recordMove, scheduleReview, thresholdTiers } from './tier-moves.ts';
import { policyOf, type TierPolicy } from './tier-policy.ts';

/** The end of a user's period in a tier with a threshold: the downgrade policy applies once. */
export const tierReviewQueue: JobQueue = {
  name: 'tier-review',
  table: 'tier_reviews',
  unfinished: "status = 'scheduled'",
  fairnessKey: 'partner_id',
};

/** Where the policy takes a user at the end of a period (the current tier when it keeps them). */
function reviewedTier(
  tiers: RankedTier[],
  current: RankedTier,
  earned: number,
  downgrade: TierPolicy['downgrade'],
): RankedTier {
  if (downgrade === 'reevaluate') return tiers.filter((t) => (t.minCoins ?? 0) <= earned).at(-1) ?? tiers[0];
  if (earned >= (current.minCoins ?? 0)) return current;
  return tiers.filter((t) => t.rank < current.rank).at(-1) ?? current;
}

/**
 * Reviews one user, in one transaction: the review is marked done first, only while still
 * scheduled, so a review runs once whatever the replicas, restarts or expired leases; a user moved
 * since (whose review was cancelled) is left alone. The user's next period starts here.
 */
async function reviewUser(tx: EntityManager, reviewId: string): Promise<boolean> {
  const review = await boundRow<{ partnerId: string; userId: string; tierId: string }>(
    tx,
    `UPDATE tier_reviews SET status = 'done' WHERE id = $1 AND status = 'scheduled'
     RETURNING partner_id AS "partnerId", user_id AS "userId", tier_id AS "tierId"`,
    [reviewId],
  );
  if (!review) return false;
  const user = await boundRow<{ tierId: string | null }>(
    tx,
    'SELECT tier_id AS "tierId" FROM users WHERE partner_id = $1 AND user_id = $2 FOR UPDATE',
    [review.partnerId, review.userId],
  );
  if (user?.tierId !== review.tierId) return false;
  const tiers = await thresholdTiers(tx, review.partnerId);
  const current = tiers.find((t) => t.id === review.tierId);
  if (!current) return false;
  const policy = await policyOf(tx, review.partnerId);
  const earned = await earnedInWindow(tx, review.partnerId, review.userId, policy.windowDays);
  const target = reviewedTier(tiers, current, earned, policy.downgrade);
  if (target.id === current.id) {
    await scheduleReview(tx, review.partnerId, review.userId, current);
    return false;
  }
  await boundRow(
    tx,
    'UPDATE users SET tier_id = $3, updated_at = now() WHERE partner_id = $1 AND user_id = $2',
    [review.partnerId, review.userId, target.id],
  );
  await recordMove(
    tx,
    { partnerId: review.partnerId, userId: review.userId, tier: target },
    current.id,
    'rule',
  );
  return true;
}

export function startTierReviews(opts: {
  db: Database;
  relay: OutboxRelay;
  log: Logger;
  pollMs: number;
}): JobWorker {
  return startJobWorker({
    db: opts.db,
    log: opts.log,
    service: 'onboarding',
    queue: tierReviewQueue,
    concurrency: 4,
    perKeyConcurrency: 2,
    leaseMs: 30_000,
    pollMs: opts.pollMs,
    maxAttempts: 100,
    backoff: { baseMs: 1_000, capMs: 300_000 },
    async run(job) {
      const moved = await opts.db.em.fork().transactional((tx) => reviewUser(tx, job.id));
      if (moved) opts.relay.notify();
      return 'done';
    },
  });
}
