import { outboxMigration } from '@coin/events';
import { UsersTiersRequests } from './0001-users-tiers-requests.ts';

export const onboardingMigrations = [
  outboxMigration,
  { name: '0001-users-tiers-requests', class: UsersTiersRequests },
];
