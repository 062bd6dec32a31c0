import { runMain } from '@coin/telemetry';
import { startLeaderboard } from './service.ts';

runMain('leaderboard', () => startLeaderboard());
