import { natsNamespace } from '@coin/bus';

/** Stream, event subjects and durable consumers under the bus namespace (`NATS_NAMESPACE`). */
export function eventsNamespace(): string {
  return natsNamespace();
}

export function streamName(): string {
  const ns = eventsNamespace();
  return ns ? `EVENTS_${ns}` : 'EVENTS';
}

export function qualifiedSubject(subject: string): string {
  const ns = eventsNamespace();
  return ns ? `${ns}.${subject}` : subject;
}

export function durableName(durable: string): string {
  const ns = eventsNamespace();
  return ns ? `${durable}_${ns}` : durable;
}
