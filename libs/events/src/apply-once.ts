import { boundQuery, type Database, type EntityManager } from '@coin/db';

/**
 * Runs `apply` in a transaction only if this consumer has not applied `eventId` before; the id is
 * recorded in the same transaction, so a redelivered event has no second effect.
 */
export async function applyOnce(
  em: EntityManager,
  consumer: string,
  eventId: string,
  apply: (tx: EntityManager) => Promise<void>,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const inserted = await boundQuery<{ event_id: string }>(
      tx,
      'INSERT INTO applied_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id',
      [consumer, eventId],
    );
    if (inserted.length === 0) return false;
    await apply(tx);
    return true;
  });
}

/**
 * The batch form of `applyOnce`: one transaction records every id and runs `apply` with the
 * events not applied before (possibly none), so a batch costs one round of statements. An event
 * twice in the batch (published again under another message id) is fresh once. The ids are
 * recorded in sorted order, so concurrent batches wait for each other's ids without deadlock.
 */
export async function applyOnceEach<T extends { eventId: string }>(
  em: EntityManager,
  consumer: string,
  events: readonly T[],
  apply: (tx: EntityManager, fresh: T[]) => Promise<void>,
): Promise<T[]> {
  return em.transactional(async (tx) => {
    const inserted = await boundQuery<{ event_id: string }>(
      tx,
      `INSERT INTO applied_events (consumer, event_id) SELECT $1, unnest($2::text[])
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [consumer, [...new Set(events.map((e) => e.eventId))].sort()],
    );
    const ids = new Set(inserted.map((r) => r.event_id));
    // Deleting each id as it is taken leaves a second copy of an event out.
    const fresh = events.filter((e) => ids.delete(e.eventId));
    if (fresh.length > 0) await apply(tx, fresh);
    return fresh;
  });
}

/**
 * The consumer's `beforePark` for events applied once under `consumers`: an event parked after
 * failing for a day may still have been applied (its transaction committed, a later step failed),
 * and its replay can come at any time, so its id is pinned and the retention purge keeps it. When
 * the pin cannot be written the event is not parked and is retried instead.
 */
export function keepAppliedId(db: Database, consumers: readonly string[]) {
  return async (event: { eventId: string }): Promise<void> => {
    await boundQuery(
      db.em.fork(),
      'UPDATE applied_events SET pinned = true WHERE consumer = ANY($1) AND event_id = $2',
      [consumers, event.eventId],
    );
  };
}
