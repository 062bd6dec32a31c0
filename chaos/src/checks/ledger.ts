import { verifyLedger } from '@coin/wallet';
import type { Books } from '../books.ts';
import { type CheckResult, check } from './check.ts';

/**
 * The ledger's own invariants (what `npm run ledger:verify` checks): postings sum to zero per
 * partner, each balance equals its postings, no user wallet below zero, two postings per entry.
 */
export async function ledgerChecks(books: Books): Promise<CheckResult[]> {
  const client = await books.connect('wallet');
  try {
    const report = await verifyLedger(client);
    const figure = `${report.entries} entries, ${report.accounts} accounts, ${report.coinsInWallets} coins in wallets`;
    return [check('ledger balanced (ledger:verify)', figure, report.violations)];
  } finally {
    client.release();
  }
}
