/**
 * An optional namespace (`EVENTS_NAMESPACE`) gives a set of processes a stream, subjects and
 * durable consumers of their own on a shared NATS: each test stack gets one, so stacks running
 * side by side never consume each other's events, and two environments can share one server.
 * Unset, the names are the plain ones: stream EVENTS, subjects `events.>`.
 */
export function eventsNamespace(): string {
  const ns = process.env.EVENTS_NAMESPACE ?? '';
  if (!/^[A-Za-z0-9_]{0,32}$/.test(ns))
    throw new Error('EVENTS_NAMESPACE must be at most 32 letters, digits or _');
  return ns;
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
