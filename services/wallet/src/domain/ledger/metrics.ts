import { counter, histogram } from '@coin/telemetry';

/** Every transfer and reversal the ledger decided, by direction (`reversal` for those) and outcome (`done`, `replay`, `insufficient`, …). */
export const ledgerTransfers = counter({
  name: 'coin_ledger_transfers_total',
  help: 'Transfers decided by the ledger, by direction and outcome',
  labelNames: ['direction', 'outcome'] as const,
});

/** How many transfers share a database transaction: with one batch in flight, what arrived while it ran. */
export const ledgerBatchItems = histogram({
  name: 'coin_ledger_batch_items',
  help: 'Transfers and reversals the wallet applied in one database transaction',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000],
});
