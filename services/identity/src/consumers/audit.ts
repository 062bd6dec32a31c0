import type { NatsConnection } from '@coin/bus';
import { auditRecordedEvent, EVENT_CONSUMERS } from '@coin/contracts';
import type { Database } from '@coin/db';
import { type RunningConsumer, startConsumer } from '@coin/events';
import type { Logger } from '@coin/telemetry';
import { recordAudit } from '../domain/audit/audit-log.ts';

/** The services whose changes reach the audit log as events (identity records its own directly). */
const SOURCES = [
  EVENT_CONSUMERS.identityWalletAudit,
  EVENT_CONSUMERS.identityRulesAudit,
  EVENT_CONSUMERS.identityOnboardingAudit,
];

/**
 * Appends each change another service made to the partner's audit log. The service wrote the event
 * in the change's transaction (its outbox), so a change that committed always reaches the log;
 * the entry's id is the event's, so a redelivery adds nothing.
 */
export function consumeAuditEvents(deps: { db: Database; nc: NatsConnection; log: Logger }) {
  return Promise.all(
    SOURCES.map(
      (source): Promise<RunningConsumer> =>
        startConsumer({
          nc: deps.nc,
          log: deps.log,
          durable: source.durable,
          subject: source.subject,
          schema: auditRecordedEvent,
          handle: async (event) => {
            await recordAudit(deps.db.em.fork(), {
              id: event.eventId,
              partnerId: event.partnerId,
              actor: event.actor ?? undefined,
              clientIp: event.clientIp ?? undefined,
              action: event.action,
              summary: event.summary,
              details: event.details,
              at: event.at,
            });
          },
        }),
    ),
  );
}
