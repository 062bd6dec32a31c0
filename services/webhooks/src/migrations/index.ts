import { outboxMigration } from '@coin/events';
import { Deliveries } from './0001-deliveries.ts';

export const webhooksMigrations = [outboxMigration, { name: '0001-deliveries', class: Deliveries }];
