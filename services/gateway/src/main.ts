import { runMain } from '@coin/telemetry';
import { startGateway } from './server.ts';

runMain('gateway', () => startGateway());
