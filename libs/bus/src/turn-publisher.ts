import type { NatsConnection, PublishOptions } from '@nats-io/transport-node';

interface Outgoing {
  subject: string;
  payload: Uint8Array;
  options: PublishOptions;
  settle(err?: unknown): void;
}

/**
 * Hands nats.js the messages of one event-loop turn at once. nats.js writes its buffer to the
 * socket in a microtask after the first message it buffers, so a message published in another I/O
 * callback costs a socket write of its own.
 */
class Coalescer {
  private readonly nc: NatsConnection;
  private outgoing: Outgoing[] = [];

  constructor(nc: NatsConnection) {
    this.nc = nc;
  }

  publish(outgoing: Outgoing): void {
    if (this.outgoing.push(outgoing) === 1) setImmediate(this.send);
  }

  private readonly send = (): void => {
    const batch = this.outgoing;
    this.outgoing = [];
    for (const { subject, payload, options, settle } of batch) {
      let refused: unknown;
      try {
        this.nc.publish(subject, payload, options);
      } catch (err) {
        refused = err;
      }
      settle(refused);
    }
  };
}

const byConnection = new WeakMap<NatsConnection, Coalescer>();

/**
 * Publishes at the end of this event-loop turn, with every message published in the turn's other
 * I/O callbacks: the gateway's requests, one per HTTP request and each read from its own socket,
 * and a service's replies to requests that arrived in separate reads, leave in one write (before,
 * one write per request: the gateway's largest cost after its HTTP writes, and a quarter of the
 * leaderboard's CPU answering echoes). Then calls `settled`: with nothing once nats.js has the
 * message, with the error if nats.js refuses it (the connection is closed or draining).
 */
export function publishThisTurn(
  nc: NatsConnection,
  subject: string,
  payload: Uint8Array,
  options: PublishOptions,
  settled: (err?: unknown) => void,
): void {
  let coalescer = byConnection.get(nc);
  if (!coalescer) {
    coalescer = new Coalescer(nc);
    byConnection.set(nc, coalescer);
  }
  coalescer.publish({ subject, payload, options, settle: settled });
}
