import { connect, type NatsConnection } from '@nats-io/transport-node';
import { bindNames, busNames } from './namespace.ts';

export type { NatsConnection };

/**
 * One connection per process; it reconnects for ever, so a NATS restart loses only in-flight
 * requests. The connection carries its namespace: every subject, stream and durable name used
 * through it is taken from `namesOf(nc)`.
 */
export async function connectBus(url: string, name: string, namespace: string): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
  });
  bindNames(nc, busNames(namespace));
  return nc;
}
