import { runMain } from '@coin/telemetry';
import { startOnboarding } from './service.ts';

runMain('onboarding', () => startOnboarding());
