import type { Actor } from '@coin/contracts';
import type { OutboxEvent } from './outbox.ts';

/** A change a request made, for the partner's audit log: the request's own actor and address. */
export interface AuditedChange {
  partnerId: string;
  actor?: Actor;
  clientIp?: string;
  /** The operation's name. */
  action: string;
  summary: string;
  details: Record<string, unknown>;
}

/**
 * The outbox event that carries a change to identity's audit log (`auditRecordedEvent`). Written in
 * the change's own transaction, so the entry exists exactly when the change does.
 */
export function auditEvent(subject: string, change: AuditedChange): OutboxEvent {
  return {
    subject,
    payload: {
      partnerId: change.partnerId,
      actor: change.actor ?? null,
      clientIp: change.clientIp?.slice(0, 100) ?? null,
      action: change.action,
      summary: change.summary.slice(0, 1000),
      details: change.details,
      at: new Date().toISOString(),
    },
  };
}
