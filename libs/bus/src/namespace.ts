/**
 * An optional namespace (`NATS_NAMESPACE`) gives a set of processes subjects of their own on a
 * shared NATS server: request-reply subjects, NATS micro discovery, and (through libs/events) the
 * event stream and durable consumers. Each test stack gets one, so stacks running side by side never
 * answer each other's requests or consume each other's events; two environments can share a server
 * the same way. Unset, every name is the plain one.
 */
export function natsNamespace(): string {
  const ns = process.env.NATS_NAMESPACE ?? '';
  if (!/^[A-Za-z0-9_]{0,32}$/.test(ns))
    throw new Error('NATS_NAMESPACE must be at most 32 letters, digits or _');
  return ns;
}

/** The subject an operation is served and requested on. */
export function busSubject(subject: string): string {
  const ns = natsNamespace();
  return ns ? `${ns}.${subject}` : subject;
}

/** The service name in NATS micro discovery subjects (`$SRV.PING.<name>`). */
export function microName(service: string): string {
  const ns = natsNamespace();
  return ns ? `${service}_${ns}` : service;
}
