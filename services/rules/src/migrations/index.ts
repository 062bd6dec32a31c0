import { outboxMigration } from '@coin/events';
import { RulesAndParticipations } from './0001-rules-and-participations.ts';

export const rulesMigrations = [
  outboxMigration,
  { name: '0001-rules-and-participations', class: RulesAndParticipations },
];
