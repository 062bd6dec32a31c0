import { wallet } from '@coin/contracts';
import type { z } from 'zod';

type Party = z.infer<typeof wallet.partySchema>;
export type LedgerEntryView = z.infer<typeof wallet.ledgerEntrySchema>;
export type TransferEntryView = z.infer<typeof wallet.transferLedgerEntrySchema>;

/** A ledger entry as the domain sees it. */
export interface EntryRecord {
  id: string;
  userId: string;
  transactionType: string;
  debitOrCredit: string;
  coins: string | number;
  narration: string;
  fromParty: Record<string, unknown>;
  toParty: Record<string, unknown>;
  createdAt: Date | string;
  updatedAt: Date | string;
  balanceAfter: string | number;
  /** A reversal corrects this entry. */
  reversed: boolean;
  /** A credit with a validity: when its coins expire. */
  expiresAt?: Date | string | null;
}

/**
 * A `ledger_entries` row, selected or as `to_jsonb(ledger_entries)` (what the batch function
 * returns); `reversed` is selected beside it where it can be true.
 */
export function entryFromRow(row: Record<string, unknown>): EntryRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    transactionType: row.transaction_type as string,
    debitOrCredit: row.debit_or_credit as string,
    coins: row.coins as string | number,
    narration: row.narration as string,
    fromParty: row.from_party as Record<string, unknown>,
    toParty: row.to_party as Record<string, unknown>,
    createdAt: row.created_at as Date | string,
    updatedAt: row.updated_at as Date | string,
    balanceAfter: row.balance_after as string | number,
    reversed: row.reversed === true,
    expiresAt: (row.expires_at as Date | string | null | undefined) ?? null,
  };
}

const iso = (t: Date | string) => new Date(t).toISOString();

/**
 * The ledger entry of docs/specification.md ("Coin ledger entry"). Gift cards, plans and charges are not
 * offered.
 */
export function ledgerEntryView(e: EntryRecord): LedgerEntryView {
  return {
    id: e.id,
    userId: e.userId,
    debitOrCredit: e.debitOrCredit as 'CR' | 'DE',
    coins: Number(e.coins),
    claimed: false,
    transactionType: e.transactionType,
    narration: e.narration,
    from: e.fromParty as Party,
    to: e.toParty as Party,
    ...wallet.ledgerEntryNotOffered,
    refunded: e.reversed,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
    balanceAfter: Number(e.balanceAfter),
    ...(e.expiresAt ? { expiresAt: iso(e.expiresAt) } : {}),
  };
}

/** The entry as a transfer or a reversal returns it. */
export function transferEntryView(e: EntryRecord): TransferEntryView {
  return { ...ledgerEntryView(e), reversed: e.reversed, status: 'Success', token: null };
}
