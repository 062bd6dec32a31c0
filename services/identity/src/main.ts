import { runMain } from '@coin/startup';
import { startIdentity } from './service.ts';

runMain('identity', () => startIdentity());
