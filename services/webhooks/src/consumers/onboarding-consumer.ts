import { callOperation, type NatsConnection } from '@coin/bus';
import {
  EVENT_CONSUMERS,
  type OnboardingProcessedEvent,
  onboarding,
  onboardingProcessedEvent,
} from '@coin/contracts';
import type { WebhookEventSource } from './event-consumer.ts';

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
 * Each processed onboarding request is one USER_ONBOARDING delivery listing every failure (paged
 * from onboarding past the event's own), dated when the request's processing was published.
 */
export function onboardingSource(
  nc: NatsConnection,
  timeoutMs: number,
): WebhookEventSource<typeof onboardingProcessedEvent> {
  return {
    consumer: EVENT_CONSUMERS.webhooksOnboarding,
    schema: onboardingProcessedEvent,
    kind: 'USER_ONBOARDING',
    fields: async (event, meta) => ({
      occurredAt: meta.publishedAt.toISOString(),
      requestId: event.requestId,
      failed: await allFailures(nc, event, timeoutMs),
    }),
  };
}
