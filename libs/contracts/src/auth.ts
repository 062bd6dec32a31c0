/** What identity signs and the gateway verifies; the algorithm is pinned on both sides. */
export const ACCESS_TOKEN = {
  issuer: 'coin-rewards/identity',
  audience: 'coin-rewards/api',
  algorithm: 'EdDSA',
} as const;

/** Secret API keys are told apart from JWTs by this prefix. */
export const API_KEY_PREFIX = 'ck_live_';

/**
 * Idempotency keys that services choose for their own calls (a rule reward's wallet payment) start
 * with this; the gateway refuses it in a partner's `Idempotency-Key`, so a partner's key can never
 * claim or replay a payment that a service makes on its behalf.
 */
export const INTERNAL_IDEMPOTENCY_PREFIX = 'internal:';

/** A rule reward's wallet payment: the wallet marks such entries, whose reversal also takes points back. */
export const RULE_REWARD_IDEMPOTENCY_PREFIX = `${INTERNAL_IDEMPOTENCY_PREFIX}rule-reward:`;
