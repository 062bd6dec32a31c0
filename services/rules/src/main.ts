import { runMain } from '@coin/startup';
import { startRules } from './service.ts';

runMain('rules', () => startRules());
