import { sqlMigrations } from '@coin/db';
import { appliedEventsMigrations } from '@coin/events';

/** It consumes events and publishes none: applied-event ids, no outbox. */
export const webhooksMigrations = [
  ...appliedEventsMigrations,
  ...sqlMigrations(new URL('./', import.meta.url)),
];
