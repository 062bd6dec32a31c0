import { outboxMigration } from '@coin/events';
import { Standings } from './0001-standings.ts';

export const leaderboardMigrations = [outboxMigration, { name: '0001-standings', class: Standings }];
