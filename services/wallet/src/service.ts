import { createOutboundClient } from '@coin/outbound';
import { startService } from '@coin/startup';
import { walletConfig } from './config.ts';
import type { WalletDeps } from './deps.ts';
import { createDefaultValidities } from './domain/ledger/default-validity.ts';
import { startExpiryJob } from './domain/ledger/expiry-job.ts';
import { startExpiryWarnings } from './domain/ledger/expiry-warnings.ts';
import { startIdempotencyPurge } from './domain/ledger/purge-idempotency-keys.ts';
import { startLedgerSealer } from './domain/ledger/sealer.ts';
import { createTransferBatcher } from './domain/ledger/transfer-batcher.ts';
import { startLedgerVerification } from './domain/ledger/verify-schedule.ts';
import { createDirectory } from './domain/parties/directory.ts';
import { walletMigrations } from './migrations/index.ts';
import { coinSummaryHandler } from './operations/coin-summary.ts';
import { getBalanceHandler } from './operations/get-balance.ts';
import { getPendingTransferHandler } from './operations/get-pending-transfer.ts';
import { getUserTransactionsHandler } from './operations/get-user-transactions.ts';
import { ledgerExportHandler } from './operations/ledger-export.ts';
import { listPendingTransfersHandler } from './operations/list-pending-transfers.ts';
import { postPendingTransferHandler } from './operations/post-pending-transfer.ts';
import { reverseTransferHandler } from './operations/reverse-transfer.ts';
import { transferFromUserHandler } from './operations/transfer-from-user.ts';
import { transferToUserHandler } from './operations/transfer-to-user.ts';
import { getTreasuryHandler, setTreasuryHandler } from './operations/treasury.ts';
import { voidPendingTransferHandler } from './operations/void-pending-transfer.ts';

export async function startWallet(env: NodeJS.ProcessEnv = process.env) {
  return startService(walletConfig(env), {
    description:
      'double-entry coin ledger: transfers, pending transfers, reversals, history, balances, treasury',
    outbox: true,
    start({ config, db, nc, relay, log, background }) {
      const outbound = createOutboundClient({
        mode: config.APP_MODE,
        timeoutMs: config.WALLET_USER_DETAILS_TIMEOUT_MS,
      });
      background({ stop: () => outbound.close() }, 'outbound client');
      const deps: WalletDeps = {
        db,
        config,
        directory: createDirectory({
          nc,
          outbound,
          log,
          timeoutMs: config.REQUEST_TIMEOUT_MS,
          partnerCacheMs: config.WALLET_PARTNER_CACHE_MS,
          userDetailsCacheMs: config.WALLET_USER_DETAILS_CACHE_MS,
        }),
        batcher: createTransferBatcher({
          db,
          log,
          shards: config.WALLET_PARTNER_SHARDS,
          batchMax: config.WALLET_BATCH_MAX,
          concurrency: config.WALLET_BATCH_CONCURRENCY,
          onCommitted: () => relay.notify(),
        }),
        relay,
        validities: createDefaultValidities(db),
      };
      background(
        startIdempotencyPurge({ db, log, ttlHours: config.WALLET_IDEMPOTENCY_TTL_HOURS }),
        'idempotency key purge',
      );
      background(
        startLedgerVerification({
          url: config.databaseUrl,
          log,
          intervalMs: config.WALLET_VERIFY_INTERVAL_MS,
          statementTimeoutMs: config.WALLET_VERIFY_TIMEOUT_MS,
        }),
        'ledger verification',
      );
      background({ stop: () => deps.batcher.drain() }, 'transfer batcher');
      // After the batcher: stopped before it (in reverse order), so nothing is submitted to a drained batcher.
      background(
        startExpiryJob({ db, log, batcher: deps.batcher, intervalMs: config.WALLET_EXPIRY_INTERVAL_MS }),
        'expiry job',
      );
      background(
        startExpiryWarnings({
          db,
          log,
          days: config.WALLET_EXPIRY_WARNING_DAYS,
          intervalMs: config.WALLET_EXPIRY_WARNING_INTERVAL_MS,
          onAnnounced: () => relay.notify(),
        }),
        'expiry warnings',
      );
      background(startLedgerSealer({ db, log, intervalMs: config.WALLET_SEAL_INTERVAL_MS }), 'ledger sealer');
      return [
        transferToUserHandler(deps),
        transferFromUserHandler(deps),
        getUserTransactionsHandler(deps),
        getBalanceHandler(deps),
        coinSummaryHandler(deps),
        reverseTransferHandler(deps),
        getTreasuryHandler(deps),
        setTreasuryHandler(deps),
        ledgerExportHandler(deps),
        postPendingTransferHandler(deps),
        voidPendingTransferHandler(deps),
        getPendingTransferHandler(deps),
        listPendingTransfersHandler(deps),
      ];
    },
    database: { migrations: walletMigrations },
  });
}
