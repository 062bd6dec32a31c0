import { sqlMigrations } from '@coin/db';
import { appliedEventsMigrations } from '@coin/events';

/** It consumes events and publishes none: applied-event ids, no outbox. */
export const leaderboardMigrations = [
  ...appliedEventsMigrations,
  ...sqlMigrations(new URL('./', import.meta.url)),
];
