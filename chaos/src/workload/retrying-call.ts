import { backoffDelay } from '@coin/backoff';
import { request } from 'undici';

export interface CallSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  token: string;
  body?: unknown;
  query?: Record<string, string | number>;
  /** Sent unchanged on every attempt. */
  idempotencyKey?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: an envelope of any operation, read by the checks
  body: any;
}

/** Each attempt of one request, and the definitive answer it ended with (none if it never got one). */
export interface CallRecord {
  spec: CallSpec;
  attempts: number;
  /** Attempts answered 5xx. */
  serverErrors: number;
  /** Attempts with no answer: refused or dropped connection, timeout. */
  noAnswer: number;
  final?: Answer;
  /** When the attempt that got the definitive answer was sent, and when it was answered (epoch ms). */
  finalSentAt?: number;
  finalAt?: number;
}

const ATTEMPT_TIMEOUT_MS = 10_000;

async function attempt(baseUrl: string, spec: CallSpec): Promise<Answer> {
  const url = new URL(spec.path, baseUrl);
  for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { authorization: `Bearer ${spec.token}` };
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
  const res = await request(url, {
    method: spec.method,
    headers,
    body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    headersTimeout: ATTEMPT_TIMEOUT_MS,
    bodyTimeout: ATTEMPT_TIMEOUT_MS,
  });
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.statusCode, headers: res.headers, body };
}

/**
 * Whether an answer settles the request: a 5xx, a 429 or a 409 saying the same key is still
 * running is about the moment, not the request, so a client asks again (with the same key).
 */
function definitive(a: Answer): boolean {
  if (a.status >= 500 || a.status === 429) return false;
  return !(a.status === 409 && a.body?.data?.appErrorCode === 'IDEMPOTENCY_IN_PROGRESS');
}

/**
 * A client as a careful partner writes one: it retries through either gateway until it gets a
 * definitive answer or `giveUp()` says the run is over.
 */
export async function retryingCall(
  gateways: () => readonly string[],
  first: number,
  spec: CallSpec,
  giveUp: () => boolean,
): Promise<CallRecord> {
  const record: CallRecord = { spec, attempts: 0, serverErrors: 0, noAnswer: 0 };
  for (;;) {
    const urls = gateways();
    const sentAt = Date.now();
    const answer = await attempt(urls[(first + record.attempts) % urls.length], spec).catch(() => undefined);
    record.attempts += 1;
    if (answer && definitive(answer)) {
      record.final = answer;
      record.finalSentAt = sentAt;
      record.finalAt = Date.now();
      return record;
    }
    if (!answer) record.noAnswer += 1;
    else if (answer.status >= 500) record.serverErrors += 1;
    if (giveUp()) return record;
    await new Promise((r) => setTimeout(r, backoffDelay(record.attempts, { baseMs: 100, capMs: 2000 })));
  }
}
