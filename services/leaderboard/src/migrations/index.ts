import { outboxMigrations } from '@coin/events';
import { Standings } from './0001-standings.ts';

export const leaderboardMigrations = [...outboxMigrations, { name: '0001-standings', class: Standings }];
