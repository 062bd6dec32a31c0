import { sqlMigrations } from '@coin/db';
import { outboxMigrations } from '@coin/events';

/**
 * It publishes events, and consumes the wallet's transfers for tier rules: its applied-event ids are
 * 0006's (the library's migration ran, and 0005 dropped its table, before it consumed anything).
 */
export const onboardingMigrations = [...outboxMigrations, ...sqlMigrations(new URL('./', import.meta.url))];
