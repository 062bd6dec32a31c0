import { runMain } from '@coin/telemetry';
import { startIdentity } from './service.ts';

runMain('identity', () => startIdentity());
