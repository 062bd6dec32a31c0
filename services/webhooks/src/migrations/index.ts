import { outboxMigrations } from '@coin/events';
import { Deliveries } from './0001-deliveries.ts';
import { DeliveryJobs } from './0002-delivery-jobs.ts';

export const webhooksMigrations = [
  ...outboxMigrations,
  { name: '0001-deliveries', class: Deliveries },
  { name: '0002-delivery-jobs', class: DeliveryJobs },
];
