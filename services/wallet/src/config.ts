import { integer, serviceConfig } from '@coin/config';

const load = serviceConfig('wallet', {
  /** Rows each partner's issuance account is split into, so concurrent transfers do not queue on one row. */
  WALLET_PARTNER_SHARDS: integer(8, { max: 256 }),
  /** The most transfers one database transaction applies (1 = a transaction per transfer). */
  WALLET_BATCH_MAX: integer(64, { max: 1000 }),
  /**
   * Batches in flight at once per replica; each holds one database connection. One: the transfers
   * that arrive while it runs share the next, so a replica commits fewer, larger batches, which cost
   * Postgres less per transfer (docs/decisions/2026-11-23-wallet-one-batch-in-flight.md).
   * Replicas add batches in flight.
   */
  WALLET_BATCH_CONCURRENCY: integer(1, { max: 64 }),
  /** How long an idempotency key is kept; never less than a day. */
  WALLET_IDEMPOTENCY_TTL_HOURS: integer(72, { min: 24 }),
  /** Budget of one call to a partner's userDetailsUrl; a slower partner only loses its names in the entry. */
  WALLET_USER_DETAILS_TIMEOUT_MS: integer(300, { min: 10, max: 5000 }),
  WALLET_USER_DETAILS_CACHE_MS: integer(300_000, { min: 0 }),
  WALLET_PARTNER_CACHE_MS: integer(60_000, { min: 0 }),
  /** How often one replica checks the ledger's invariants (coin_ledger_verify_*); 0 turns it off. */
  WALLET_VERIFY_INTERVAL_MS: integer(900_000, { min: 0 }),
  WALLET_VERIFY_TIMEOUT_MS: integer(300_000, { min: 1000 }),
  /** How often the sealer looks for committed entries to append to the hash chains; 0 turns it off. */
  WALLET_SEAL_INTERVAL_MS: integer(200, { min: 0 }),
  /**
   * How often each replica looks for pending transfers past their expiry (and resolves them); 0 turns
   * it off. A post or void that comes later applies the expiry itself, so this only bounds how long a
   * transfer shows pending past it.
   */
  WALLET_EXPIRY_INTERVAL_MS: integer(5_000, { min: 0 }),
  /**
   * How many days before a credit lot expires its partner is told (a coinsExpiring event, the
   * COINS_EXPIRING webhook), once per lot; 0 turns the warnings off.
   */
  WALLET_EXPIRY_WARNING_DAYS: integer(7, { min: 0, max: 366 }),
  /** How often each replica looks for lots to announce. */
  WALLET_EXPIRY_WARNING_INTERVAL_MS: integer(60_000, { min: 0 }),
});

export type WalletConfig = ReturnType<typeof walletConfig>;

export function walletConfig(env: NodeJS.ProcessEnv) {
  const config = load(env);
  // Every batch in flight holds a connection; reads and the relay need some beside them.
  return { ...config, DB_POOL_MAX: Math.max(config.DB_POOL_MAX, config.WALLET_BATCH_CONCURRENCY + 4) };
}
