import { counter } from '@coin/telemetry';

/** Every transfer and reversal the ledger decided, by direction (`reversal` for those) and outcome (`done`, `replay`, `insufficient`, …). */
export const ledgerTransfers = counter({
  name: 'coin_ledger_transfers_total',
  help: 'Transfers decided by the ledger, by direction and outcome',
  labelNames: ['direction', 'outcome'] as const,
});
