/** What identity signs and the gateway verifies; the algorithm is pinned on both sides. */
export const ACCESS_TOKEN = {
  issuer: 'coin-rewards/identity',
  audience: 'coin-rewards/api',
  algorithm: 'EdDSA',
} as const;

/** Secret API keys are told apart from JWTs by this prefix. */
export const API_KEY_PREFIX = 'ck_live_';
