import { runMain } from '@coin/telemetry';
import { startRules } from './service.ts';

runMain('rules', () => startRules());
