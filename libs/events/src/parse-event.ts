import type { JsMsg } from '@nats-io/jetstream';
import type { z } from 'zod';

/** What a handler may know about the message besides its event; never the message itself. */
export interface EventMeta {
  subject: string;
  /** Sequence in the events stream. */
  seq: number;
  /** 1 on the first delivery. */
  deliveries: number;
  publishedAt: Date;
}

export type ParsedEvent<T> = { ok: true; event: T; meta: EventMeta } | { ok: false; reason: string };

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** The message's payload checked against the event's contract, or why it is malformed. */
export function parseEvent<S extends z.ZodType>(schema: S, msg: JsMsg): ParsedEvent<z.output<S>> {
  let payload: unknown;
  try {
    payload = msg.json();
  } catch (err) {
    return { ok: false, reason: `malformed: not JSON (${(err as Error).message})` };
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: `malformed: ${describeIssues(parsed.error)}` };
  const meta: EventMeta = {
    subject: msg.subject,
    seq: msg.seq,
    deliveries: msg.info.deliveryCount,
    publishedAt: new Date(Math.floor(msg.info.timestampNanos / 1e6)),
  };
  return { ok: true, event: parsed.data, meta };
}
