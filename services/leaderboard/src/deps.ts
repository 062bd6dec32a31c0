import type { NatsConnection } from '@coin/bus';
import type { Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import type { LeaderboardConfig } from './config.ts';
import type { BoardIndex } from './domain/board-index.ts';

export interface LeaderboardDeps {
  db: Database;
  nc: NatsConnection;
  index: BoardIndex;
  config: LeaderboardConfig;
  log: Logger;
}
