import type { NatsConnection } from '@coin/bus';
import { EVENT_CONSUMERS, transferCompletedEvent } from '@coin/contracts';
import type { Database } from '@coin/db';
import {
  applyOnce,
  keepAppliedId,
  type OutboxRelay,
  type RunningConsumer,
  startConsumer,
} from '@coin/events';
import type { Logger } from '@coin/telemetry';
import { countCredit } from '../domain/tiers/earnings.ts';

/**
 * Counts every credit to a user toward tier rules, each transfer event once (its id recorded in the
 * same transaction as the count and the move). Its durable starts at new events (the contracts'
 * `startAt`): a deployment does not replay the stream's history into moves.
 */
export function consumeEarnings(deps: {
  db: Database;
  nc: NatsConnection;
  relay: OutboxRelay;
  log: Logger;
}): Promise<RunningConsumer> {
  const { durable, subject } = EVENT_CONSUMERS.onboardingEarnings;
  return startConsumer({
    nc: deps.nc,
    log: deps.log,
    durable,
    subject,
    schema: transferCompletedEvent,
    beforePark: keepAppliedId(deps.db, [durable]),
    async handle(event) {
      if (event.debitOrCredit !== 'CR') return;
      let moved = false;
      await applyOnce(deps.db.em.fork(), durable, event.eventId, async (tx) => {
        moved = await countCredit(tx, event);
      });
      if (moved) deps.relay.notify();
    },
  });
}
