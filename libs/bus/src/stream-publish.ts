import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import { failureReason, repliesOf } from './replies.ts';
import { decodeJson } from './wire.ts';

/** JetStream's acknowledgement of a stored message. */
interface StreamAck {
  stream: string;
  seq: number;
  /** The stream already held a message with this `Nats-Msg-Id` in its duplicate window. */
  duplicate?: boolean;
}

/** JetStream answered the publish with an error (a stream limit, a wrong expectation...). */
class StreamRefusal extends Error {
  readonly code: number;
  constructor(description: string, code: number) {
    super(`JetStream refused the message: ${description}`);
    this.code = code;
  }
}

/**
 * Publishes a message to the stream that takes `subject` and waits for JetStream's
 * acknowledgement, with `msgId` as its `Nats-Msg-Id` (the stream drops a repeat within its duplicate
 * window). It goes through the connection's reply subscription (replies.ts), as operations do:
 * nats.js's `js.publish` builds an Error, capturing a stack, for every publish that succeeds, and
 * a promise for its timer (docs/decisions/2026-11-24-publish-through-reply-subscription.md).
 *
 * A message the client refuses to send (larger than the server's `max_payload`) throws nats.js's
 * own error, which no retry can change.
 */
export async function publishToStream(
  nc: NatsConnection,
  subject: string,
  payload: Uint8Array,
  headers: MsgHdrs,
  msgId: string,
  timeoutMs: number,
): Promise<StreamAck> {
  headers.set('Nats-Msg-Id', msgId);
  let reply: Uint8Array;
  try {
    reply = (await repliesOf(nc).request(subject, payload, headers, timeoutMs)).data;
  } catch (err) {
    switch (failureReason(err)) {
      case 'no_responders':
        throw new Error(`no JetStream stream takes ${subject}`, { cause: err });
      case 'timeout':
        throw new Error(`JetStream did not acknowledge ${subject} within ${timeoutMs} ms`, { cause: err });
      default:
        throw (err as Error).cause ?? err;
    }
  }
  const ack = decodeJson(reply) as StreamAck | { error: { code: number; description: string } };
  if ('error' in ack) throw new StreamRefusal(ack.error.description, ack.error.code);
  return ack;
}
