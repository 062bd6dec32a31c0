import { randomUUID } from 'node:crypto';
import type { webhooks } from '@coin/contracts';
import { boundQuery, type EntityManager } from '@coin/db';

type Kind = webhooks.EventKind;

/** An event to send to its partner: the body without `event`, `status` and `sequence`. */
export interface NewDelivery {
  eventId: string;
  partnerId: string;
  kind: Kind;
  fields: { occurredAt: string } & Record<string, unknown>;
}

/**
 * Stores one delivery per event, in the caller's transaction, each numbered by its partner's
 * counter: the counter row is raised by the number of the partner's events (`RETURNING` the last),
 * so the numbers of a partner follow each other with no gap whatever runs concurrently, and a
 * transaction that rolls back gives its numbers back. Partners are counted in id order, so two
 * transactions never wait for each other's counters in a cycle.
 */
export async function recordDeliveries(tx: EntityManager, events: readonly NewDelivery[]): Promise<void> {
  if (events.length === 0) return;
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.partnerId, (counts.get(e.partnerId) ?? 0) + 1);
  const partners = [...counts.keys()].sort();
  const raised = await boundQuery<{ partner_id: string; last_sequence: string }>(
    tx,
    `INSERT INTO partner_sequences AS s (partner_id, last_sequence)
     SELECT * FROM unnest($1::uuid[], $2::bigint[]) ORDER BY 1
     ON CONFLICT (partner_id) DO UPDATE SET last_sequence = s.last_sequence + EXCLUDED.last_sequence
     RETURNING partner_id, last_sequence`,
    [partners, partners.map((p) => counts.get(p))],
  );
  const next = new Map(
    raised.map((r) => [r.partner_id, Number(r.last_sequence) - counts.get(r.partner_id)! + 1]),
  );
  const rows = events.map((e) => {
    const sequence = next.get(e.partnerId)!;
    next.set(e.partnerId, sequence + 1);
    const { occurredAt, ...rest } = e.fields;
    const body = JSON.stringify({ event: e.kind, status: 'success', occurredAt, sequence, ...rest });
    return { id: randomUUID(), ...e, sequence, body };
  });
  await boundQuery(
    tx,
    `INSERT INTO deliveries (id, partner_id, event_id, event_type, body, sequence, next_attempt_at)
     SELECT id, partner_id, event_id, event_type, body, sequence, now()
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::bigint[])
         AS r(id, partner_id, event_id, event_type, body, sequence)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.partnerId),
      rows.map((r) => r.eventId),
      rows.map((r) => r.kind),
      rows.map((r) => r.body),
      rows.map((r) => r.sequence),
    ],
  );
}
