import { outboxMigration } from '@coin/events';
import { UsersTiersRequests } from './0001-users-tiers-requests.ts';
import { RequestsLz4 } from './0002-requests-lz4.ts';

export const onboardingMigrations = [
  outboxMigration,
  { name: '0001-users-tiers-requests', class: UsersTiersRequests },
  { name: '0002-requests-lz4', class: RequestsLz4 },
];
