import type { Database } from '@coin/db';
import { startPollLoop } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { counter } from '@coin/telemetry';
import { dueLotHolders } from './credit-lots.ts';
import { duePending } from './pending-transfers.ts';
import type { TransferBatcher } from './transfer-batcher.ts';

const expired = counter({
  name: 'coin_ledger_pending_expired_total',
  help: 'Pending transfers this replica resolved at their expiry (posted or voided), by outcome',
  labelNames: ['outcome'] as const,
});

const lotsExpired = counter({
  name: 'coin_ledger_lots_expired_total',
  help: "Users whose due credit lots this replica's expiry job expired (done) or found already expired (skipped)",
  labelNames: ['outcome'] as const,
});

/** Pending transfers resolved per pass; a full pass runs the next at once. */
const PASS = 200;

/**
 * Resolves pending transfers past their expiry, and expires credit lots past theirs, every
 * `intervalMs` on every replica. A user's due lots go through the batch function as one
 * `expire_lots` item, which expires them under the user's wallet lock: a lot that two replicas, or a
 * debit of the user, reach at once is expired once, the later ones find nothing due (skipped). A
 * pending transfer goes as an `expire` item, which decides under the transfer's row lock: a
 * transfer two replicas (or a late post) reach at once is resolved once, the others answer skipped.
 * A post or void that comes after the expiry applies it itself, so this job only bounds how long a
 * transfer may show pending past its expiry. 0 turns it off.
 */
export function startExpiryJob(opts: {
  db: Database;
  log: Logger;
  batcher: TransferBatcher;
  intervalMs: number;
}) {
  for (const outcome of ['done', 'skipped']) {
    expired.inc({ outcome }, 0);
    lotsExpired.inc({ outcome }, 0);
  }
  async function once(): Promise<number> {
    return (await resolvePending()) + (await expireLots());
  }
  async function expireLots(): Promise<number> {
    const holders = await dueLotHolders(opts.db.em.fork(), PASS);
    const outcomes = await Promise.all(
      holders.map((h) =>
        opts.batcher.submit({
          op: 'expire_lots',
          partnerId: h.partnerId,
          userId: h.userId,
          traceContext: {},
        }),
      ),
    );
    for (const { outcome } of outcomes) lotsExpired.inc({ outcome });
    return outcomes.filter((o) => o.outcome === 'done').length;
  }
  async function resolvePending(): Promise<number> {
    const due = await duePending(opts.db.em.fork(), PASS);
    const outcomes = await Promise.all(
      due.map((p) =>
        opts.batcher.submit({
          op: 'expire',
          partnerId: p.partner_id,
          userId: p.user_id,
          pendingId: p.id,
          traceContext: {},
        }),
      ),
    );
    for (const { outcome } of outcomes) expired.inc({ outcome });
    return outcomes.filter((o) => o.outcome === 'done').length;
  }
  if (opts.intervalMs <= 0) return { once, stop: async () => undefined };
  const loop = startPollLoop({
    once,
    intervalMs: opts.intervalMs,
    onError: (err) => opts.log.warn({ err }, 'expiry pass failed; will retry'),
  });
  return { once, stop: () => loop.stop() };
}
