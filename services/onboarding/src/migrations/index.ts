import { outboxMigrations } from '@coin/events';
import { parkedJobsIndexMigration } from '@coin/jobs';
import { UsersTiersRequests } from './0001-users-tiers-requests.ts';
import { RequestsLz4 } from './0002-requests-lz4.ts';
import { OnboardingJobs } from './0003-onboarding-jobs.ts';

export const onboardingMigrations = [
  ...outboxMigrations,
  { name: '0001-users-tiers-requests', class: UsersTiersRequests },
  { name: '0002-requests-lz4', class: RequestsLz4 },
  { name: '0003-onboarding-jobs', class: OnboardingJobs },
  {
    name: '0004-parked-requests-index',
    class: parkedJobsIndexMigration({ index: 'onboarding_requests_parked', table: 'onboarding_requests' }),
  },
];
