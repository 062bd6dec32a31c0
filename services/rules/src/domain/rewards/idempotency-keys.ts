import { boundQuery, type Database, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import { startPurge } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';

/** Kept well beyond the 24 hours promised to partners. */
const KEY_RETENTION_DAYS = 7;

/**
 * A reward is already at most once per (rule, user); the partner's `Idempotency-Key` adds the usual
 * promise that one key always means one request: reusing it for another user or rule is refused.
 */
export async function checkRewardKey(
  em: EntityManager,
  partnerId: string,
  key: string,
  request: { ruleName: string; userId: string },
): Promise<void> {
  await boundQuery(
    em,
    `INSERT INTO reward_keys (partner_id, idempotency_key, rule_name, user_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING`,
    [partnerId, key, request.ruleName, request.userId],
  );
  const [first] = await boundQuery<{ rule_name: string; user_id: string }>(
    em,
    'SELECT rule_name, user_id FROM reward_keys WHERE partner_id = $1 AND idempotency_key = $2',
    [partnerId, key],
  );
  if (first && (first.rule_name !== request.ruleName || first.user_id !== request.userId)) {
    throw AppError.unprocessable(
      'IDEMPOTENCY_CONFLICT',
      'Idempotency-Key was already used with another request body',
    );
  }
}

/**
 * Forgets reward keys older than their retention, hourly. The table has no index on `created_at` (one
 * entry more for every reward), so a chunk takes the first expired keys it finds.
 */
export function startRewardKeyPurge(opts: { db: Database; log: Logger }) {
  return startPurge({
    what: 'reward idempotency keys',
    db: opts.db,
    log: opts.log,
    table: 'reward_keys',
    expired: 'created_at < now() - make_interval(days => $1)',
    params: [KEY_RETENTION_DAYS],
    intervalMs: 60 * 60_000,
  });
}
