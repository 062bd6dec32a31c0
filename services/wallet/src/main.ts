import { runMain } from '@coin/startup';
import { startWallet } from './service.ts';

runMain('wallet', () => startWallet());
