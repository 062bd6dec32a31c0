import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';

/** Why a request got no reply. */
export type FailureReason = 'no_responders' | 'timeout' | 'unreachable';

/** A request that got no reply at all. */
class NoReply extends Error {
  readonly reason: FailureReason;
  constructor(reason: FailureReason, cause?: unknown) {
    super(reason, { cause });
    this.reason = reason;
  }
}

interface Pending {
  resolve(msg: Msg): void;
  reject(err: NoReply): void;
  timer: NodeJS.Timeout;
}

interface Outgoing {
  token: string;
  subject: string;
  payload: Uint8Array;
  headers: MsgHdrs;
}

export function failureReason(err: unknown): FailureReason {
  return err instanceof NoReply ? err.reason : 'unreachable';
}

/**
 * Request-reply over one wildcard subscription per connection, as nats.js's own does, without its
 * cost per request: it builds an Error (capturing a stack) for every request that succeeds, even
 * with `noAsyncTraces`, and a promise for its timer, a cost on every call the gateway makes
 * (docs/decisions/2026-11-23-bus-request-reply.md). Replies come to `<inbox prefix>.<nuid>.<number>`.
 */
export class Replies {
  private readonly nc: NatsConnection;
  private readonly prefix: string;
  private readonly pending = new Map<string, Pending>();
  private outgoing: Outgoing[] = [];
  private sent = 0;

  constructor(nc: NatsConnection, inboxPrefix: string) {
    this.nc = nc;
    this.prefix = `${createInbox(inboxPrefix)}.`;
    nc.subscribe(`${this.prefix}*`, {
      callback: (err, msg) => {
        if (!err) this.settle(msg);
      },
    });
    nc.closed().then(() => {
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.reject(new NoReply('unreachable'));
      }
      this.pending.clear();
    });
  }

  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.prefix.length);
    const p = this.pending.get(token);
    if (!p) return;
    this.pending.delete(token);
    clearTimeout(p.timer);
    // NATS answers a request nobody subscribes to with an empty 503 status message.
    if (msg.data.length === 0 && msg.headers?.code === 503) p.reject(new NoReply('no_responders'));
    else p.resolve(msg);
  }

  /**
   * Sent after the I/O callbacks of this event-loop turn: the requests of every HTTP request read in
   * that turn leave in one socket write, where nats.js writes once per callback (one write per
   * request under load, the gateway's largest cost after its HTTP writes).
   */
  request(subject: string, payload: Uint8Array, headers: MsgHdrs, timeoutMs: number): Promise<Msg> {
    const token = String(++this.sent);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new NoReply('timeout'));
      }, timeoutMs);
      this.pending.set(token, { resolve, reject, timer });
      if (this.outgoing.push({ token, subject, payload, headers }) === 1) setImmediate(this.send);
    });
  }

  private readonly send = (): void => {
    const batch = this.outgoing;
    this.outgoing = [];
    for (const { token, subject, payload, headers } of batch) {
      try {
        this.nc.publish(subject, payload, { reply: this.prefix + token, headers });
      } catch (err) {
        const p = this.pending.get(token);
        if (!p) continue;
        this.pending.delete(token);
        clearTimeout(p.timer);
        p.reject(new NoReply('unreachable', err));
      }
    }
  };
}

const byConnection = new WeakMap<NatsConnection, Replies>();

/** Opens `nc`'s reply subscription (`connectBus`), under the inbox prefix its credentials allow. */
export function bindReplies(nc: NatsConnection, inboxPrefix: string): void {
  byConnection.set(nc, new Replies(nc, inboxPrefix));
}

export function repliesOf(nc: NatsConnection): Replies {
  const replies = byConnection.get(nc);
  if (!replies) throw new Error('NATS connection was not opened with connectBus');
  return replies;
}
