export { type LedgerReport, verifyLedger } from './ledger/verify.ts';
export { startWallet } from './service.ts';
