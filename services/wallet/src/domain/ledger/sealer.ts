import { boundQuery, type Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import { gauge } from '@coin/telemetry';
import { type ChainEntry, chainEntryFromRow, chainHash, GENESIS_HASH } from './chain.ts';

const unsealed = gauge({
  name: 'coin_ledger_unsealed_entries',
  help: 'Committed ledger entries not yet in their partner hash chain, as this replica last saw',
});

/** Entries sealed per transaction: one sealing round keeps its locks briefly. */
const BATCH = 2000;
/** One sealer at a time over all replicas: a chain is appended in one order. */
const LOCK = "SELECT pg_try_advisory_xact_lock(hashtext('coin-ledger-seal')) AS locked";

/**
 * Appends committed entries to their partner's hash chain, oldest `seq` first, after their commit
 * (the transfer path only queues them, by trigger): a chain never waits for, nor slows, a transfer.
 * An entry committed late (a lower `seq` than one already sealed) takes the next position of its
 * partner's chain: positions are the order of sealing, fixed once sealed.
 */
export function startLedgerSealer(opts: { db: Database; log: Logger; intervalMs: number }) {
  let stopped = false;
  let running: Promise<number> | undefined;

  async function sealOnce(): Promise<number> {
    return opts.db.em.fork().transactional(async (tx) => {
      const [{ locked }] = await boundQuery<{ locked: boolean }>(tx, LOCK, []);
      if (!locked) return 0;
      // The round's ids go through `= ANY(ARRAY(…))`, which the planner takes for a few ids found by
      // their primary keys. Joined to the queue's LIMIT instead, it planned for the whole 2,000 and
      // hashed every entry of the ledger in every round (and every row of the queue when it deleted):
      // a round's cost grew with the ledger (docs/decisions/2026-11-23-hash-chain-sealer.md).
      const rows = await boundQuery<Record<string, unknown>>(
        tx,
        `WITH q AS (
           DELETE FROM ledger_unsealed
            WHERE entry_id = ANY(ARRAY(SELECT entry_id FROM ledger_unsealed ORDER BY seq LIMIT $1))
           RETURNING entry_id)
         SELECT e.partner_id, e.seq, e.id, e.user_id, e.transaction_type, e.debit_or_credit, e.coins::text AS coins,
                e.balance_after::text AS balance_after, e.narration, e.from_party, e.to_party,
                to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
           FROM ledger_entries e
          WHERE e.id = ANY(ARRAY(SELECT entry_id FROM q))
          ORDER BY e.seq`,
        [BATCH],
      );
      if (rows.length === 0) return 0;
      const partners = [...new Set(rows.map((r) => r.partner_id as string))];
      const heads = new Map(
        // Each head is the last row of its partner in the primary key: one index probe per partner,
        // where DISTINCT ON read every sealed entry of the partner, a cost growing with the ledger.
        (
          await boundQuery<{ partner_id: string; head_seq: string; hash: string }>(
            tx,
            `SELECT p.partner_id, h.chain_seq::text AS head_seq, h.hash FROM unnest($1::uuid[]) AS p(partner_id)
               CROSS JOIN LATERAL (SELECT c.chain_seq, c.hash FROM ledger_chain c WHERE c.partner_id = p.partner_id
                                    ORDER BY c.chain_seq DESC LIMIT 1) h`,
            [partners],
          )
        ).map((h) => [h.partner_id, { seq: Number(h.head_seq), hash: h.hash }]),
      );
      const out: { partner: string; seq: number; id: string; prev: string; hash: string }[] = [];
      for (const r of rows) {
        const partner = r.partner_id as string;
        const head = heads.get(partner) ?? { seq: 0, hash: GENESIS_HASH };
        const entry: ChainEntry = { ...chainEntryFromRow(r), seq: head.seq + 1 };
        const hash = chainHash(head.hash, entry);
        out.push({ partner, seq: entry.seq, id: entry.id, prev: head.hash, hash });
        heads.set(partner, { seq: entry.seq, hash });
      }
      await boundQuery(
        tx,
        `INSERT INTO ledger_chain (partner_id, chain_seq, entry_id, prev_hash, hash)
         SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::text[], $5::text[])`,
        [
          out.map((o) => o.partner),
          out.map((o) => o.seq),
          out.map((o) => o.id),
          out.map((o) => o.prev),
          out.map((o) => o.hash),
        ],
      );
      return out.length;
    });
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        running = sealOnce();
        const sealed = await running;
        if (sealed === BATCH) continue;
        const [{ n }] = await boundQuery<{ n: number }>(
          opts.db.em.fork(),
          'SELECT count(*)::int AS n FROM ledger_unsealed',
          [],
        );
        unsealed.set(n);
      } catch (err) {
        opts.log.warn({ err }, 'ledger sealing failed; will retry');
      }
      await new Promise((r) => setTimeout(r, opts.intervalMs));
    }
  }

  const done = opts.intervalMs > 0 ? loop() : Promise.resolve();
  return {
    sealOnce,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}
