import type { Operation } from './operation.ts';

/** The leaderboard service's operations (HTTP routes and internal NATS subjects). */
export const leaderboardOperations: readonly Operation[] = [];
