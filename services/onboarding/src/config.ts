import { databaseConfigSchema, integer, loadServiceConfig } from '@coin/config';

const schema = databaseConfigSchema.extend({
  /** Users inserted per transaction while a request is processed. */
  ONBOARDING_CHUNK_SIZE: integer(5_000, { max: 20_000 }),
  /**
   * How long a replica owns a request it is processing without making progress; after that (a
   * crash) another replica, or the restarted one, takes it over from the last committed chunk.
   */
  ONBOARDING_LEASE_MS: integer(30_000, { min: 100 }),
  /** How often each replica looks for requests left unfinished by a replica that died. */
  ONBOARDING_POLL_MS: integer(1_000, { min: 10 }),
});

export type OnboardingConfig = ReturnType<typeof onboardingConfig>;

export function onboardingConfig(env: NodeJS.ProcessEnv) {
  return loadServiceConfig('onboarding', schema, env);
}
