import { databaseConfigSchema, loadServiceConfig } from '@coin/config';
import { z } from 'zod';

const schema = databaseConfigSchema.extend({
  /** Events handled at once by each consumer of this replica. */
  LEADERBOARD_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** How long an event delivered to a replica that died stays unacknowledged before it is redelivered. */
  LEADERBOARD_ACK_WAIT_MS: z.coerce.number().int().min(500).default(30_000),
});

export type LeaderboardConfig = ReturnType<typeof leaderboardConfig>;

export function leaderboardConfig(env: NodeJS.ProcessEnv) {
  return loadServiceConfig('leaderboard', schema, env);
}
