import { runMain } from '@coin/startup';
import { startLeaderboard } from './service.ts';

runMain('leaderboard', () => startLeaderboard());
