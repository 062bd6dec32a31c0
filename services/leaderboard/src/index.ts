export { startLeaderboard } from './service.ts';
