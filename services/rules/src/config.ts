import { databaseConfigSchema, integer, loadServiceConfig } from '@coin/config';

const schema = databaseConfigSchema.extend({
  /** How long a reward waits for the wallet (and onboarding) before leaving the payment pending. */
  RULES_CALL_TIMEOUT_MS: integer(2000),
  /** How often the retrier looks for pending rewards that are due. */
  REWARD_RETRY_POLL_MS: integer(1000),
  /** First retry delay of a pending reward; doubled at every attempt up to REWARD_RETRY_MAX_MS. */
  REWARD_RETRY_BASE_MS: integer(1000),
  REWARD_RETRY_MAX_MS: integer(60_000),
});

export type RulesConfig = ReturnType<typeof rulesConfig>;

export function rulesConfig(env: NodeJS.ProcessEnv) {
  return loadServiceConfig('rules', schema, env);
}
