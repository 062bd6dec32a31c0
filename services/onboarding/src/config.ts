import { databaseConfigSchema, loadServiceConfig } from '@coin/config';
import { z } from 'zod';

const schema = databaseConfigSchema.extend({
  /** Users inserted per transaction while a request is processed. */
  ONBOARDING_CHUNK_SIZE: z.coerce.number().int().min(1).max(20_000).default(5_000),
  /**
   * How long a replica owns a request it is processing without making progress; after that (a
   * crash) another replica, or the restarted one, takes it over from the last committed chunk.
   */
  ONBOARDING_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often each replica looks for requests left unfinished by a replica that died. */
  ONBOARDING_POLL_MS: z.coerce.number().int().min(10).default(1_000),
});

export type OnboardingConfig = ReturnType<typeof onboardingConfig>;

export function onboardingConfig(env: NodeJS.ProcessEnv) {
  return loadServiceConfig('onboarding', schema, env);
}
