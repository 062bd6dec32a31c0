import { handle } from '@coin/bus';
import { leaderboard } from '@coin/contracts';

export function pingHandler() {
  return handle(leaderboard.ping, async () => ({
    service: 'leaderboard' as const,
    time: new Date().toISOString(),
  }));
}
