import { integer, serviceConfig } from '@coin/config';

export const leaderboardConfig = serviceConfig('leaderboard', {
  /** Events handled at once by each consumer of this replica. */
  LEADERBOARD_CONCURRENCY: integer(16, { max: 256 }),
  /** Transfer and reward events applied in one transaction and one Redis pipeline, at most. */
  LEADERBOARD_BATCH: integer(128, { max: 1000 }),
  /** How long a batch waits for more events once its first has arrived. */
  LEADERBOARD_LINGER_MS: integer(20, { min: 0, max: 1000 }),
});

export type LeaderboardConfig = ReturnType<typeof leaderboardConfig>;
