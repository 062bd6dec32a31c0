import { randomInt } from 'node:crypto';
import { EVENT_SUBJECTS } from '@coin/contracts';
import { boundQuery, type Database, type EntityManager } from '@coin/db';
import { addToOutbox, auditEvent } from '@coin/events';
import type { Logger } from '@coin/telemetry';
import { batchItem, type LedgerCommand, type TransferOutcome } from './batch-items.ts';
import { entryFromRow } from './entry-view.ts';
import { ledgerBatchItems } from './metrics.ts';

export interface BatcherOptions {
  db: Database;
  log: Logger;
  shards: number;
  batchMax: number;
  concurrency: number;
  /** Called after a commit that wrote events, so the outbox relay publishes them at once. */
  onCommitted: () => void;
}

interface Pending {
  command: LedgerCommand;
  resolve: (o: TransferOutcome) => void;
  reject: (err: unknown) => void;
}

interface ItemResult {
  item: number;
  outcome: TransferOutcome['outcome'];
  entry: Record<string, unknown> | null;
  released?: Record<string, unknown>;
}

/** Postgres reported the error, so the statement (and its transaction) was rolled back. */
const rolledBack = (err: unknown) =>
  typeof (err as { code?: unknown }).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((err as { code: string }).code);

/**
 * Applies transfers and reversals through `wallet_apply_ledger_batch`, several per database transaction. Nothing
 * waits for a timer: a transfer goes at once when a batch slot is free; under load, the transfers
 * that arrive while every slot is busy share the next transaction (one commit, one update of the
 * partner's account). Each batch debits or credits one random shard of each partner's account.
 */
export function createTransferBatcher(opts: BatcherOptions) {
  const queue: Pending[] = [];
  const keysInFlight = new Set<string>();
  const partnersReady = new Set<string>();
  let running = 0;

  async function ensurePartnerAccounts(partnerId: string): Promise<void> {
    if (partnersReady.has(partnerId)) return;
    await boundQuery(
      opts.db.em.fork(),
      `INSERT INTO accounts (partner_id, kind, shard)
         SELECT $1::uuid, 'partner', s FROM generate_series(0, $2::int - 1) AS s ON CONFLICT DO NOTHING`,
      [partnerId, opts.shards],
    );
    partnersReady.add(partnerId);
  }

  async function applyIn(em: EntityManager, batch: Pending[]): Promise<ItemResult[]> {
    const items = batch.map(({ command }, item) => batchItem(command, item));
    const [row] = await boundQuery<{ results: ItemResult[] }>(
      em,
      'SELECT wallet_apply_ledger_batch($1::jsonb, $2, $3, $4) AS results',
      [
        JSON.stringify(items),
        randomInt(opts.shards),
        EVENT_SUBJECTS.transferCompleted,
        EVENT_SUBJECTS.transferReversed,
      ],
    );
    return row.results;
  }

  /**
   * A batch holding an audited command (a reversal) runs in a transaction that also writes the
   * audit entries of the commands done, so an applied reversal always has its entry; other batches
   * stay one statement.
   */
  async function apply(batch: Pending[]): Promise<ItemResult[]> {
    if (!batch.some((p) => 'audit' in p.command && p.command.audit)) return applyIn(opts.db.em.fork(), batch);
    return opts.db.em.fork().transactional(async (tx) => {
      const results = await applyIn(tx, batch);
      for (const r of results) {
        const command = batch[r.item].command;
        if (r.outcome !== 'done' || !('audit' in command) || !command.audit) continue;
        const entryId = r.entry ? entryFromRow(r.entry).id : null;
        const details = { ...command.audit.details, reversalEntryId: entryId };
        await addToOutbox(tx, auditEvent(EVENT_SUBJECTS.walletAudit, { ...command.audit, details }));
      }
      return results;
    });
  }

  async function run(batch: Pending[]): Promise<void> {
    ledgerBatchItems.observe(batch.length);
    try {
      const results = await apply(batch);
      let wroteEvents = false;
      for (const r of results) {
        const p = batch[r.item];
        // A pending transfer resolved by its expiry on a late post or void wrote events too.
        // An insufficient debit may still have expired the user's due lots.
        wroteEvents ||= r.outcome === 'done' || r.outcome === 'expired' || r.outcome === 'insufficient';
        if (r.outcome === 'done' || r.outcome === 'replay') {
          p.resolve({
            outcome: r.outcome,
            entry: entryFromRow(r.entry!),
            ...(r.released ? { released: entryFromRow(r.released) } : {}),
          });
        } else {
          p.resolve({ outcome: r.outcome });
        }
      }
      if (wroteEvents) opts.onCommitted();
    } catch (err) {
      // One bad transfer must not fail the others: after a rollback, each runs on its own.
      if (batch.length > 1 && rolledBack(err)) {
        opts.log.warn({ err, size: batch.length }, 'transfer batch failed; applying its transfers singly');
        for (const p of batch) await run([p]);
      } else {
        for (const p of batch) p.reject(err);
      }
    }
  }

  function pump(): void {
    while (running < opts.concurrency && queue.length > 0) {
      const batch = queue.splice(0, opts.batchMax);
      running += 1;
      run(batch).finally(() => {
        running -= 1;
        pump();
      });
    }
  }

  async function submit(command: LedgerCommand): Promise<TransferOutcome> {
    const key = command.idempotency && `${command.partnerId}/${command.idempotency.key}`;
    // The same key already queued or running in this replica: it is in flight. Other replicas'
    // in-flight keys are found by the advisory lock in the database.
    if (key && keysInFlight.has(key)) return { outcome: 'in_progress' };
    if (key) keysInFlight.add(key);
    try {
      await ensurePartnerAccounts(command.partnerId);
      return await new Promise<TransferOutcome>((resolve, reject) => {
        queue.push({ command, resolve, reject });
        pump();
      });
    } finally {
      if (key) keysInFlight.delete(key);
    }
  }

  /** Waits for queued and running batches to finish (graceful stop). */
  async function drain(): Promise<void> {
    while (running > 0 || queue.length > 0) await new Promise((r) => setTimeout(r, 5));
  }

  return { submit, drain };
}

export type TransferBatcher = ReturnType<typeof createTransferBatcher>;
