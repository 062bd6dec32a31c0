import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DiscardPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { Empty, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';

/** Set on a request or reply whose body waits in the payload stream: `<id>:<chunks>`. */
const PAYLOAD_REF_HEADER = 'Payload-Ref';
/** The body's AES-256-GCM key (base64), random per payload: only the message's receiver has it. */
const PAYLOAD_KEY_HEADER = 'Payload-Key';

/** The stream (and subject prefix) large payloads travel through; every namespace shares it. */
export const PAYLOAD_STREAM = 'BUS_PAYLOADS';
export const PAYLOAD_SUBJECT = 'bus.payloads';
/** A payload nobody fetched (its caller or server died) disappears after this. */
const MAX_AGE_NS = 10 * 60 * 1e9;
/** Room left in a message for headers (trace context, request id, the direct-get reply's own). */
const HEADROOM = 64 * 1024;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The payload stream, as the operator's set-up creates it (services may not): on disk, so it is
 * there after a NATS restart; bounded in bytes (the oldest payloads go first); no message may be
 * deleted or the stream purged through the API, by anyone.
 */
export async function ensurePayloadStream(
  nc: NatsConnection,
  opts: { maxBytes: number; replicas: number },
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: PAYLOAD_STREAM,
    subjects: [`${PAYLOAD_SUBJECT}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: MAX_AGE_NS,
    max_bytes: opts.maxBytes,
    discard: DiscardPolicy.Old,
    allow_direct: true,
    deny_delete: true,
    deny_purge: true,
    num_replicas: opts.replicas,
  };
  const existing = await jsm.streams.info(PAYLOAD_STREAM).catch(() => undefined);
  if (!existing) await jsm.streams.add(config);
  // The storage of a stream cannot change: an earlier memory stream is made again on disk.
  else if (existing.config.storage !== StorageType.File) {
    await jsm.streams.delete(PAYLOAD_STREAM);
    await jsm.streams.add(config);
  } else await jsm.streams.update(PAYLOAD_STREAM, config);
}

function maxPayload(nc: NatsConnection): number {
  return nc.info?.max_payload ?? 1024 * 1024;
}

function chunkSubject(id: string, n: number): string {
  return `${PAYLOAD_SUBJECT}.${id}.${n}`;
}

/**
 * A request or reply larger than the server's max_payload (1 MB by default; a 100,000-user
 * onboarding call is about 13 MB, a points-leaderboard page of users with large userData a few MB)
 * travels in chunks through a JetStream stream, and the message itself carries only the chunks'
 * place and the key. Plain chunks, not the object store, which costs several times the CPU for a
 * payload that needs no digest (docs/decisions/2026-11-28-bus-own-endpoints-and-payload-chunks.md).
 */
export function needsOffload(nc: NatsConnection, data: Uint8Array): boolean {
  return data.length > maxPayload(nc) - HEADROOM;
}

/**
 * Stores `data` encrypted under a fresh key, one chunk per subject `bus.payloads.<id>.<n>` (a random
 * 128-bit id), and sets the headers that say where it is and how to read it. A process reading the
 * stream without the message finds only ciphertext; one replacing a chunk fails the tag check.
 */
export async function offloadInto(nc: NatsConnection, data: Uint8Array, h: MsgHdrs): Promise<void> {
  const key = randomBytes(32);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([iv, cipher.update(data), cipher.final(), cipher.getAuthTag()]);
  const js = jetstream(nc);
  const id = randomBytes(16).toString('hex');
  const size = maxPayload(nc) - HEADROOM;
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < sealed.length; at += size) chunks.push(sealed.subarray(at, at + size));
  await Promise.all(chunks.map((c, n) => js.publish(chunkSubject(id, n), c)));
  h.set(PAYLOAD_REF_HEADER, `${id}:${chunks.length}`);
  h.set(PAYLOAD_KEY_HEADER, key.toString('base64'));
}

/** One chunk, by its subject (the only read of the stream a service may do): never by sequence. */
async function chunk(nc: NatsConnection, id: string, n: number): Promise<Uint8Array> {
  const m = await nc.request(`$JS.API.DIRECT.GET.${PAYLOAD_STREAM}.${chunkSubject(id, n)}`, Empty, {
    timeout: 10_000,
  });
  if (m.headers?.hasError || m.headers?.get('Nats-Subject') !== chunkSubject(id, n))
    throw new Error(`payload ${id} chunk ${n} is missing`);
  return m.data;
}

/** The body of a message: its own data, or the offloaded payload its headers point to, decrypted. */
export async function bodyOf(
  nc: NatsConnection,
  msg: { data: Uint8Array; headers?: MsgHdrs },
): Promise<Uint8Array> {
  const ref = msg.headers?.get(PAYLOAD_REF_HEADER);
  if (!ref) return msg.data;
  const [id, count] = ref.split(':');
  const key = Buffer.from(msg.headers?.get(PAYLOAD_KEY_HEADER) ?? '', 'base64');
  if (!/^[0-9a-f]{32}$/.test(id ?? '') || !/^\d{1,6}$/.test(count ?? '') || key.length !== 32)
    throw new Error('malformed payload reference');
  const parts = await Promise.all(Array.from({ length: Number(count) }, (_, n) => chunk(nc, id, n)));
  const sealed = Buffer.concat(parts);
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error(`payload ${id} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}
