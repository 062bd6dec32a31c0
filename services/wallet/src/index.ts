export { verifyLedger } from './domain/ledger/verify.ts';
export { startWallet } from './service.ts';
