import { jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { type NatsConnection, nuid } from '@nats-io/transport-node';
import { ensureStreamOnce } from './ensure-stream.ts';

/** Set on a request or reply whose body waits in the payload stream: `<id>:<seq>,<seq>,…`. */
export const PAYLOAD_REF_HEADER = 'Payload-Ref';

/** The stream (and subject prefix) large payloads travel through; every namespace shares it. */
export const PAYLOAD_STREAM = 'BUS_PAYLOADS';
export const PAYLOAD_SUBJECT = 'bus.payloads';
const STREAM = PAYLOAD_STREAM;
const SUBJECT = PAYLOAD_SUBJECT;
/** A payload nobody fetched (its caller or server died) disappears after this. */
const MAX_AGE_NS = 10 * 60 * 1e9;
/** Room left in a message for headers (trace context, request id, the direct-get reply's own). */
const HEADROOM = 64 * 1024;

function ensureStream(nc: NatsConnection): Promise<unknown> {
  return ensureStreamOnce(nc, STREAM, () => ({
    subjects: [`${SUBJECT}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.Memory,
    max_age: MAX_AGE_NS,
    allow_direct: true,
  }));
}

function maxPayload(nc: NatsConnection): number {
  return nc.info?.max_payload ?? 1024 * 1024;
}

/**
 * A request or reply larger than the server's max_payload (1 MB by default; a 100,000-user
 * onboarding call is about 13 MB, a points-leaderboard page of users with large userData a few MB)
 * travels in chunks through a memory JetStream stream, and the message itself carries only their
 * sequence numbers. Plain chunks, not the object store, which costs several times the CPU for a
 * payload that needs no digest (docs/decisions/2026-11-28-bus-own-endpoints-and-payload-chunks.md).
 */
export function needsOffload(nc: NatsConnection, data: Uint8Array): boolean {
  return data.length > maxPayload(nc) - HEADROOM;
}

export async function offload(nc: NatsConnection, data: Uint8Array): Promise<string> {
  await ensureStream(nc);
  const js = jetstream(nc);
  const id = nuid.next();
  const size = maxPayload(nc) - HEADROOM;
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) chunks.push(data.subarray(at, at + size));
  const acks = await Promise.all(chunks.map((c) => js.publish(`${SUBJECT}.${id}`, c)));
  return `${id}:${acks.map((a) => a.seq).join(',')}`;
}

/** Reads an offloaded payload once; its chunks are purged as soon as they have been read. */
export async function takeOffloaded(nc: NatsConnection, ref: string): Promise<Uint8Array> {
  const [id, list] = ref.split(':');
  const jsm = await jetstreamManager(nc);
  const parts = await Promise.all(
    (list ?? '').split(',').map(async (seq) => {
      const m = await jsm.direct.getMessage(STREAM, { seq: Number(seq) });
      if (!m) throw new Error(`payload ${id} chunk ${seq} is missing`);
      return m.data;
    }),
  );
  jsm.streams.purge(STREAM, { filter: `${SUBJECT}.${id}` }).catch(() => undefined);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
