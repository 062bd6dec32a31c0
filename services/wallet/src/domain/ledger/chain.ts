import { createHash } from 'node:crypto';
import type { EntryRecord } from './entry-view.ts';

/** The `prevHash` of a partner's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry as the chain covers it (and the export shows it): its position, and its amounts and time as text. */
export interface ChainEntry
  extends Pick<EntryRecord, 'id' | 'userId' | 'transactionType' | 'debitOrCredit' | 'narration'> {
  seq: number;
  /** Two decimals, as text: "10.50". */
  coins: string;
  balanceAfter: string | null;
  from: Record<string, unknown>;
  to: Record<string, unknown>;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
}

const PARTY_FIELDS = ['id', 'userId', 'fullname_businessName', 'email', 'tag'] as const;

/**
 * The canonical form, byte for byte (docs/partners/coins-and-ledger.md, "A ledger you can verify"): the UTF-8 bytes of the JSON
 * array (JSON.stringify, no spaces) of, in order, seq (number), id, userId, transactionType,
 * debitOrCredit, coins, balanceAfter (text or null), narration, createdAt, then from's and to's id,
 * userId, fullname_businessName, email, tag (text or null).
 */
function canonicalEntry(e: ChainEntry): string {
  const party = (p: Record<string, unknown>) => PARTY_FIELDS.map((f) => (p[f] ?? null) as string | null);
  return JSON.stringify([
    e.seq,
    e.id,
    e.userId,
    e.transactionType,
    e.debitOrCredit,
    e.coins,
    e.balanceAfter,
    e.narration,
    e.createdAt,
    ...party(e.from),
    ...party(e.to),
  ]);
}

/** hash = hex(SHA-256(prevHash as its 64 ASCII hex characters ‖ canonical entry)). */
export function chainHash(prevHash: string, e: ChainEntry): string {
  return createHash('sha256').update(prevHash).update(canonicalEntry(e)).digest('hex');
}

/** A chain row's columns (`ledger_chain` joined with `ledger_entries`) as the chain sees them. */
export const CHAIN_COLUMNS = `c.chain_seq::int AS seq, c.prev_hash, c.hash, e.id, e.user_id, e.transaction_type,
  e.debit_or_credit, e.coins::text AS coins, e.balance_after::text AS balance_after, e.narration,
  e.from_party, e.to_party, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

export function chainEntryFromRow(r: Record<string, unknown>): ChainEntry {
  return {
    seq: Number(r.seq),
    id: r.id as string,
    userId: r.user_id as string,
    transactionType: r.transaction_type as string,
    debitOrCredit: r.debit_or_credit as string,
    coins: r.coins as string,
    balanceAfter: (r.balance_after as string | null) ?? null,
    narration: r.narration as string,
    from: r.from_party as Record<string, unknown>,
    to: r.to_party as Record<string, unknown>,
    createdAt: r.created_at as string,
  };
}
