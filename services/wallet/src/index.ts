export { startWallet } from './service.ts';
