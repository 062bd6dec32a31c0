import { outboxMigrations } from '@coin/events';
import { parkedJobsIndexMigration } from '@coin/jobs';
import { Deliveries } from './0001-deliveries.ts';
import { DeliveryJobs } from './0002-delivery-jobs.ts';
import { ManualRedelivery } from './0003-manual-redelivery.ts';
import { EventSequences } from './0004-event-sequences.ts';

export const webhooksMigrations = [
  ...outboxMigrations,
  { name: '0001-deliveries', class: Deliveries },
  { name: '0002-delivery-jobs', class: DeliveryJobs },
  { name: '0003-manual-redelivery', class: ManualRedelivery },
  { name: '0004-event-sequences', class: EventSequences },
  {
    name: '0005-parked-deliveries-index',
    class: parkedJobsIndexMigration({ index: 'deliveries_parked', table: 'deliveries' }),
  },
];
