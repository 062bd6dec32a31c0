import type { NatsConnection } from '@coin/bus';
import type { Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import type { BoardIndex } from './board-index.ts';
import type { LeaderboardConfig } from './config.ts';

export interface LeaderboardDeps {
  orm: Database;
  nc: NatsConnection;
  index: BoardIndex;
  config: LeaderboardConfig;
  log: Logger;
}
