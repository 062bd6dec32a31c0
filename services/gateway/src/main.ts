import { runMain } from '@coin/startup/process';
import { startGateway } from './server.ts';

runMain('gateway', () => startGateway());
