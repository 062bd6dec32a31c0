/**
 * `npm run ledger:verify -w @coin/wallet`: checks the wallet ledger's invariants against
 * WALLET_DATABASE_URL (or DATABASE_URL_BASE/coin_wallet), prints what it found, and exits 1 on any
 * violation (2 when the database cannot be read).
 */
import { databaseUrlFor } from '@coin/config';
import pg from 'pg';
import { verifyLedger } from '../ledger/verify.ts';

const url = databaseUrlFor('wallet', process.env);
const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
  const report = await verifyLedger(client);
  console.log(
    `ledger ${new URL(url).pathname.slice(1)}: ${report.partners} partners, ${report.accounts} accounts, ` +
      `${report.entries} entries, ${report.coinsInWallets} coins in user wallets`,
  );
  if (report.violations.length === 0) {
    console.log('OK: every partner sums to zero, every balance equals its postings, no wallet is negative');
  } else {
    console.log(`VIOLATIONS (${report.violations.length}):`);
    for (const v of report.violations) console.log(`  - ${v}`);
  }
  process.exitCode = report.violations.length === 0 ? 0 : 1;
} catch (err) {
  console.error(`ledger verification could not run: ${(err as Error).message}`);
  process.exitCode = 2;
} finally {
  await client.end().catch(() => undefined);
}
