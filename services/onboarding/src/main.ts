import { runMain } from '@coin/startup';
import { startOnboarding } from './service.ts';

runMain('onboarding', () => startOnboarding());
