import { connect, type NatsConnection } from '@nats-io/transport-node';

export type { NatsConnection };

/** One connection per process; it reconnects for ever, so a NATS restart loses only in-flight requests. */
export async function connectBus(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
  });
}
