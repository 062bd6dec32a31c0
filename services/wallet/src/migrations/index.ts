import { sqlMigrations } from '@coin/db';
import { outboxMigrations } from '@coin/events';

/** It publishes events and consumes none: an outbox, no applied-event ids. */
export const walletMigrations = [...outboxMigrations, ...sqlMigrations(new URL('./', import.meta.url))];
