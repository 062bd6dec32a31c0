import { connectBus, serveOperations } from '@coin/bus';
import { openDatabase, requestScope } from '@coin/db';
import { ensureEventsStream, startOutboxRelay } from '@coin/events';
import { createOutboundClient } from '@coin/outbound';
import { createLogger, type Stoppable } from '@coin/telemetry';
import { walletConfig } from './config.ts';
import type { WalletDeps } from './deps.ts';
import { walletEntities } from './entities.ts';
import { startIdempotencyPurge } from './ledger/purge-idempotency-keys.ts';
import { createTransferBatcher } from './ledger/transfer-batcher.ts';
import { startLedgerVerification } from './ledger/verify-schedule.ts';
import { walletMigrations } from './migrations/index.ts';
import { getBalanceHandler } from './operations/get-balance.ts';
import { getUserTransactionsHandler } from './operations/get-user-transactions.ts';
import { transferFromUserHandler } from './operations/transfer-from-user.ts';
import { transferToUserHandler } from './operations/transfer-to-user.ts';
import { createDirectory } from './parties/directory.ts';

export async function startWallet(env: NodeJS.ProcessEnv = process.env): Promise<Stoppable> {
  const config = walletConfig(env);
  const log = createLogger('wallet', config.LOG_LEVEL);
  const orm = await openDatabase({
    url: config.databaseUrl,
    entities: walletEntities,
    migrations: walletMigrations,
    log,
    poolMax: Math.max(config.WALLET_DB_POOL, config.WALLET_BATCH_CONCURRENCY + 4),
  });
  const nc = await connectBus(config.NATS_URL, 'wallet');
  await ensureEventsStream(nc);
  const relay = startOutboxRelay({ orm, nc, log });
  const outbound = createOutboundClient({
    mode: config.APP_MODE,
    timeoutMs: config.WALLET_USER_DETAILS_TIMEOUT_MS,
  });
  const deps: WalletDeps = {
    orm,
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
      orm,
      log,
      shards: config.WALLET_PARTNER_SHARDS,
      batchMax: config.WALLET_BATCH_MAX,
      concurrency: config.WALLET_BATCH_CONCURRENCY,
      onCommitted: () => relay.notify(),
    }),
  };
  const purge = startIdempotencyPurge({ orm, log, ttlHours: config.WALLET_IDEMPOTENCY_TTL_HOURS });
  const verification = startLedgerVerification({
    url: config.databaseUrl,
    log,
    intervalMs: config.WALLET_VERIFY_INTERVAL_MS,
    statementTimeoutMs: config.WALLET_VERIFY_TIMEOUT_MS,
  });
  const service = serveOperations(nc, {
    service: 'wallet',
    version: '1.0.0',
    description: 'double-entry coin ledger: transfers, history, balances',
    log,
    around: requestScope(orm),
    metricsPort: config.METRICS_PORT,
    handlers: [
      transferToUserHandler(deps),
      transferFromUserHandler(deps),
      getUserTransactionsHandler(deps),
      getBalanceHandler(deps),
    ],
  });
  log.info({ id: service.id }, 'wallet started');
  return {
    async stop() {
      await service.stop();
      await deps.batcher.drain();
      purge.stop();
      verification.stop();
      await relay.stop();
      await nc.drain();
      await outbound.close();
      await orm.close();
    },
  };
}
