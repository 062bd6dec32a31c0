import { outboxMigrations } from '@coin/events';
import { parkedJobsIndexMigration } from '@coin/jobs';
import { RulesAndParticipations } from './0001-rules-and-participations.ts';
import { RewardJobs } from './0002-reward-jobs.ts';

export const rulesMigrations = [
  ...outboxMigrations,
  { name: '0001-rules-and-participations', class: RulesAndParticipations },
  { name: '0002-reward-jobs', class: RewardJobs },
  {
    name: '0003-parked-rewards-index',
    class: parkedJobsIndexMigration({ index: 'participations_parked', table: 'participations' }),
  },
];
