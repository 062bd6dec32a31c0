import type { NatsConnection } from '@nats-io/transport-node';

/**
 * Every name a process uses on NATS, under its namespace (`NATS_NAMESPACE`, read once with the
 * configuration): request-reply subjects, NATS micro discovery names, the event stream, event
 * subjects and durable consumers. Each test stack gets a namespace of its own, so stacks running side
 * by side never answer each other's requests or consume each other's events; two environments can
 * share a server the same way. With an empty namespace every name is the plain one.
 */
export interface BusNames {
  readonly namespace: string;
  /** The subject an operation is served and requested on. */
  subject(subject: string): string;
  /** The service name in NATS micro discovery subjects (`$SRV.PING.<name>`). */
  micro(service: string): string;
  /** The JetStream stream every event goes through. */
  readonly stream: string;
  /** An event's subject (`events.<service>.<fact>`) on the wire. */
  event(subject: string): string;
  durable(durable: string): string;
}

export function busNames(namespace: string): BusNames {
  if (!/^[A-Za-z0-9_]{0,32}$/.test(namespace))
    throw new Error('NATS_NAMESPACE must be at most 32 letters, digits or _');
  const prefixed = (s: string) => (namespace ? `${namespace}.${s}` : s);
  const suffixed = (s: string) => (namespace ? `${s}_${namespace}` : s);
  return {
    namespace,
    subject: prefixed,
    micro: suffixed,
    stream: suffixed('EVENTS'),
    event: prefixed,
    durable: suffixed,
  };
}

const byConnection = new WeakMap<NatsConnection, BusNames>();

export function bindNames(nc: NatsConnection, names: BusNames): void {
  byConnection.set(nc, names);
}

/** The names of the namespace `nc` was opened in (`connectBus`). */
export function namesOf(nc: NatsConnection): BusNames {
  const names = byConnection.get(nc);
  if (!names) throw new Error('NATS connection was not opened with connectBus');
  return names;
}
