import type { Database } from '@coin/db';
import { type PollLoop, startPurge } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { appliedEventsPurged } from './metrics.ts';
import { EVENTS_MAX_AGE_DAYS } from './stream.ts';

/**
 * How long an applied id is kept: a day past the events stream's own retention. A copy of an event
 * can arrive only while the stream holds it (a redelivery, or a second copy the relay published
 * under another message id), and an id is applied after its event was published, so an id this old
 * belongs to an event the stream no longer has. A parked event's replay is the one copy that can
 * come later: its id is pinned (`keepAppliedId`) and never deleted here.
 */
const APPLIED_IDS_KEPT_DAYS = EVENTS_MAX_AGE_DAYS + 1;

/**
 * Deletes the applied-event ids of a service's consumers once they are older than
 * `APPLIED_IDS_KEPT_DAYS`, oldest first by the `applied_events_expiring` index, hourly. Without it
 * the table grows by one row per event and consumer for ever
 * (docs/decisions/2026-11-27-applied-events-retention.md).
 */
export function startAppliedEventsRetention(opts: { db: Database; log: Logger; service: string }): PollLoop {
  return startPurge({
    what: 'applied event ids',
    db: opts.db,
    log: opts.log,
    table: 'applied_events',
    expired: 'NOT pinned AND applied_at < now() - make_interval(days => $1)',
    params: [APPLIED_IDS_KEPT_DAYS],
    oldestFirst: 'applied_at',
    intervalMs: 3600_000,
    onDeleted: (count) => appliedEventsPurged.inc({ service: opts.service }, count),
  });
}
