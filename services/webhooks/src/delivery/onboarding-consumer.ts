import { randomUUID } from 'node:crypto';
import { callOperation, type NatsConnection } from '@coin/bus';
import {
  EVENT_CONSUMERS,
  EVENT_SUBJECTS,
  type OnboardingProcessedEvent,
  onboarding,
  onboardingProcessedEvent,
} from '@coin/contracts';
import { boundQuery, type Database } from '@coin/db';
import { applyOnce, type RunningConsumer, startConsumer } from '@coin/events';
import type { Logger } from '@coin/telemetry';
import type { WebhooksConfig } from '../config.ts';

export const ONBOARDING_CONSUMER = EVENT_CONSUMERS.webhooksOnboarding.durable;

type Failure = OnboardingProcessedEvent['failed'][number];

/** Every failure of the request: the event's own, then the rest paged from onboarding. */
async function allFailures(
  nc: NatsConnection,
  event: OnboardingProcessedEvent,
  timeoutMs: number,
): Promise<Failure[]> {
  if (event.failedCount <= event.failed.length) return event.failed;
  const failed: Failure[] = [];
  let after = -1;
  for (;;) {
    const page = await callOperation(
      nc,
      onboarding.listFailures,
      {
        partnerId: event.partnerId,
        body: {
          requestId: event.requestId,
          after,
          limit: onboarding.MAX_FAILURES_PAGE,
        },
      },
      { timeoutMs },
    );
    failed.push(...page.failed);
    if (page.next === null) return failed;
    after = page.next;
  }
}

/**
 * Turns each processed onboarding request into one stored USER_ONBOARDING delivery, recorded with
 * the event's id in the same transaction: a redelivered event creates no second delivery. While
 * this service's database or onboarding is down the event is retried (libs/events' policy: a day),
 * so an outage delays webhooks and loses none.
 */
export function consumeOnboardingEvents(deps: {
  orm: Database;
  nc: NatsConnection;
  log: Logger;
  config: WebhooksConfig;
  onStored: () => void;
}): Promise<RunningConsumer> {
  const { orm, nc, config } = deps;
  return startConsumer({
    nc,
    log: deps.log,
    durable: ONBOARDING_CONSUMER,
    subject: EVENT_SUBJECTS.onboardingProcessed,
    schema: onboardingProcessedEvent,
    concurrency: 4,
    async handle(event) {
      const failed = await allFailures(nc, event, config.REQUEST_TIMEOUT_MS);
      const body = JSON.stringify({
        event: event.event,
        status: event.status,
        requestId: event.requestId,
        failed,
      });
      const stored = await applyOnce(orm.em.fork(), ONBOARDING_CONSUMER, event.eventId, async (tx) => {
        await boundQuery(
          tx,
          `INSERT INTO deliveries (id, partner_id, event_id, event_type, body, next_attempt_at)
           VALUES ($1, $2, $3, $4, $5, now())
           ON CONFLICT (event_id) DO NOTHING`,
          [randomUUID(), event.partnerId, event.eventId, event.event, body],
        );
      });
      if (stored) deps.onStored();
    },
  });
}
