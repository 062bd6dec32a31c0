import { outboxMigration } from '@coin/events';
import { Ledger } from './0001-ledger.ts';

export const walletMigrations = [outboxMigration, { name: '0001-ledger', class: Ledger }];
