import { type BusNames, ensureStreamOnce, namesOf } from '@coin/bus';
import {
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { companionReplicas } from './stream.ts';

/**
 * Parked events live in a JetStream stream of their own, not in a consumer's database: a consumer
 * parks exactly when its database (or Redis, or a peer service) has been failing for a day, and
 * the library's consumers need not own a database at all. Messages stay until an operator replays
 * them; nothing expires them in a real deployment.
 */
const PARKED_STREAM = 'PARKED';

const H = {
  durable: 'Coin-Parked-Durable',
  subject: 'Coin-Parked-Subject',
  reason: 'Coin-Parked-Reason',
  sequence: 'Coin-Parked-Sequence',
  deliveries: 'Coin-Parked-Deliveries',
  msgId: 'Coin-Parked-Msg-Id',
} as const;

/** Set on a replayed event: only the durable it names handles it; the other consumers skip it. */
export const REPLAY_FOR_HEADER = 'Coin-Replay-For';

/** Trace context and request ids travel on; the server's own headers and ours do not. */
function copyHeaders(from: MsgHdrs | undefined, to: MsgHdrs): void {
  for (const [key, values] of from ?? []) {
    const k = key.toLowerCase();
    if (k.startsWith('nats-') || k.startsWith('coin-parked-') || k === REPLAY_FOR_HEADER.toLowerCase())
      continue;
    for (const v of values) to.append(key, v);
  }
}

/** The parked stream of a namespace, and the subject a durable's parked events are stored on. */
export function parkedNames(names: BusNames): { stream: string; subject(durable: string): string } {
  return {
    stream: names.namespace ? `${PARKED_STREAM}_${names.namespace}` : PARKED_STREAM,
    subject: (durable) => names.event(`parked.${durable}`),
  };
}

/** The parked stream of the namespace `nc` was opened in. */
export function parkedStreamName(nc: NatsConnection): string {
  return parkedNames(namesOf(nc)).stream;
}

function parkedSubject(nc: NatsConnection, durable: string): string {
  return parkedNames(namesOf(nc)).subject(durable);
}

/** Creates the parked stream (the operator's set-up and its parked-events command; services may not). */
export function ensureParkedStream(nc: NatsConnection): Promise<JetStreamManager> {
  return ensureStreamOnce(nc, parkedStreamName(nc), async (jsm) => ({
    subjects: [parkedSubject(nc, '>')],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    allow_direct: true,
    num_replicas: await companionReplicas(nc, jsm),
    // A namespaced stream belongs to a test stack or a short-lived environment.
    max_age: namesOf(nc).namespace ? 3600 * 1e9 : 0,
  }));
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 2000);
}

/**
 * Stores a copy of the message with why it was parked; resolves only once JetStream has it, so the
 * caller may then terminate the original. Parking the same delivery twice (a crash in between)
 * stores it once: the copy's message id is the durable and the original's stream sequence.
 */
export async function park(nc: NatsConnection, durable: string, msg: JsMsg, reason: string): Promise<void> {
  const h = headers();
  copyHeaders(msg.headers, h);
  h.set(H.durable, durable);
  h.set(H.subject, msg.subject);
  h.set(H.reason, oneLine(reason));
  h.set(H.sequence, String(msg.seq));
  h.set(H.deliveries, String(msg.info.deliveryCount));
  const originalId = msg.headers?.get('Nats-Msg-Id');
  if (originalId) h.set(H.msgId, originalId);
  await jetstream(nc).publish(parkedSubject(nc, durable), msg.data, {
    headers: h,
    msgID: `${durable}:${msg.seq}`,
  });
}

export interface ParkedEvent {
  /** Sequence in the parked stream: what `replay` takes. */
  seq: number;
  durable: string;
  /** The subject it was published on (namespace included). */
  subject: string;
  reason: string;
  parkedAt: string;
  /** Sequence of the original in the events stream. */
  eventSeq: number;
  deliveries: number;
  payload: string;
}

function describe(seq: number, h: MsgHdrs, time: Date, data: Uint8Array): ParkedEvent {
  return {
    seq,
    durable: h.get(H.durable),
    subject: h.get(H.subject),
    reason: h.get(H.reason),
    parkedAt: time.toISOString(),
    eventSeq: Number(h.get(H.sequence)),
    deliveries: Number(h.get(H.deliveries)),
    payload: new TextDecoder().decode(data),
  };
}

/** Every parked event, oldest first; only those of one durable when it is given. */
export async function* listParked(nc: NatsConnection, durable?: string): AsyncGenerator<ParkedEvent> {
  const jsm = await ensureParkedStream(nc);
  const filter = parkedSubject(nc, durable ?? '>');
  for (let seq = 1; ; ) {
    const m = await jsm.direct.getMessage(parkedStreamName(nc), { seq, next_by_subj: filter });
    if (!m) return;
    yield describe(m.seq, m.header, m.time, m.data);
    seq = m.seq + 1;
  }
}

/** Parked events per durable right now (the `coin_consumer_parked_events` gauge). */
export async function parkedCounts(nc: NatsConnection): Promise<Map<string, number>> {
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(parkedStreamName(nc), { subjects_filter: parkedSubject(nc, '>') });
  const prefix = parkedSubject(nc, '');
  const counts = new Map<string, number>();
  for (const [subject, n] of Object.entries(info.state.subjects ?? {}))
    counts.set(subject.slice(prefix.length), n);
  return counts;
}

/**
 * Publishes a parked event again on its original subject for its own durable only, then removes
 * it from the parked stream. The new message id is derived from the parked one, so replaying the
 * same parked event twice in a row publishes it once.
 */
export async function replayParked(nc: NatsConnection, seq: number): Promise<ParkedEvent> {
  const jsm = await ensureParkedStream(nc);
  const m = await jsm.direct.getMessage(parkedStreamName(nc), { seq });
  if (!m?.header.get(H.durable)) throw new Error(`no parked event with sequence ${seq}`);
  const event = describe(m.seq, m.header, m.time, m.data);
  const h = headers();
  copyHeaders(m.header, h);
  h.set(REPLAY_FOR_HEADER, event.durable);
  const original = m.header.get(H.msgId) || `${event.durable}:${event.eventSeq}`;
  await jetstream(nc).publish(event.subject, m.data, {
    headers: h,
    msgID: `${original}:replay:${seq}`,
  });
  await jsm.streams.deleteMessage(parkedStreamName(nc), seq, false);
  return event;
}
