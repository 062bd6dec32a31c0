import { runMain } from '@coin/telemetry';
import { startWallet } from './service.ts';

runMain('wallet', () => startWallet());
