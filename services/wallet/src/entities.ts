import { defineEntity, p } from '@mikro-orm/core';

/** Written only by `wallet_apply_transfers` (see the migration); read here. */
export const Account = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p.bigint().primary(),
    partnerId: p.uuid(),
    kind: p.string(),
    userId: p.uuid().nullable(),
    shard: p.integer().nullable(),
    balance: p.decimal(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const LedgerEntry = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint(),
    partnerId: p.uuid(),
    userId: p.uuid(),
    transactionType: p.string(),
    debitOrCredit: p.string(),
    coins: p.decimal(),
    narration: p.string(),
    fromParty: p.json<Record<string, unknown>>(),
    toParty: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const walletEntities = [Account, LedgerEntry];
