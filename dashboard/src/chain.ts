import type { api } from './session.ts';

export type ChainEntry = Awaited<ReturnType<typeof api.ledgerExport>>['entries'][number];

/** The first entry's `prevHash`. */
const GENESIS = '0'.repeat(64);
const PARTY = ['id', 'userId', 'fullname_businessName', 'email', 'tag'] as const;

/**
 * The canonical entry of docs/partners/coins-and-ledger.md ("A ledger you can verify"), as the
 * wallet's chain.ts and verify-ledger-export.mjs build it: JSON of the fields in this order.
 */
function canonical(e: ChainEntry): string {
  const party = (p: Record<string, unknown>) => PARTY.map((f) => p[f] ?? null);
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

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

export type Verdict =
  | { ok: true; entries: number; head: string }
  | { ok: false; seq: number; id: string; why: string };

/** hash = hex(SHA-256(prevHash ‖ canonical entry)), each entry after the one before, from position 1. */
export async function verifyChain(entries: readonly ChainEntry[]): Promise<Verdict> {
  const encoder = new TextEncoder();
  let prev = GENESIS;
  let seq = 0;
  for (const e of entries) {
    const broken = (why: string): Verdict => ({ ok: false, seq: e.seq, id: e.id, why });
    if (e.seq !== seq + 1) return broken(`expected position ${seq + 1}`);
    if (e.prevHash !== prev) return broken('its prevHash is not the hash before it');
    const hash = hex(await crypto.subtle.digest('SHA-256', encoder.encode(prev + canonical(e))));
    if (e.hash !== hash) return broken('its content does not match its hash');
    [prev, seq] = [e.hash, e.seq];
  }
  return { ok: true, entries: seq, head: prev };
}
