/**
 * `npm run ledger:verify -w @coin/wallet`: checks the wallet ledger's invariants against
 * WALLET_DATABASE_URL (or DATABASE_URL_BASE/coin_wallet), prints what it found, and exits 1 on any
 * violation (2 when the database cannot be read). It reads through a connection of its own, without
 * the services' statement timeout: the checks scan the whole ledger.
 */
import { runCommand } from '@coin/startup';
import pg from 'pg';
import { walletConfig } from '../config.ts';
import { verifyLedger } from '../domain/ledger/verify.ts';

await runCommand('ledger-verify', walletConfig(process.env), async ({ config }) => {
  const client = new pg.Client({ connectionString: config.databaseUrl });
  try {
    await client.connect();
    const report = await verifyLedger(client);
    console.log(
      `ledger ${new URL(config.databaseUrl).pathname.slice(1)}: ${report.partners} partners, ` +
        `${report.accounts} accounts, ${report.entries} entries, ${report.coinsInWallets} coins in user wallets, ` +
        `${report.coinsHeld} held by ${report.pendingTransfers} pending transfers, ` +
        `${report.coinsInLots} in credit lots, ${report.coinsExpired} expired, ` +
        `${report.sealed} entries in hash chains (${report.unsealed} not sealed yet)`,
    );
    if (report.violations.length === 0) {
      console.log(
        'OK: every partner sums to zero, every balance equals its postings, no wallet or hold is negative, every posting and key refers to its entry, every hold is its pending transfers and each of those has the entries its status says, every credit lot is its remaining + expired + spent coins with each expiry once, every hash chain holds',
      );
      return 0;
    }
    console.log(`VIOLATIONS (${report.violations.length}):`);
    for (const v of report.violations) console.log(`  - ${v}`);
    return 1;
  } catch (err) {
    console.error(`ledger verification could not run: ${(err as Error).message}`);
    return 2;
  } finally {
    await client.end().catch(() => undefined);
  }
});
