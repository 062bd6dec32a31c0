export { verifyLedger } from './ledger/verify.ts';
export { startWallet } from './service.ts';
