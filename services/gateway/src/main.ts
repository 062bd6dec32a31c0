import { runMain } from '@coin/startup';
import { startGateway } from './server.ts';

runMain('gateway', () => startGateway());
