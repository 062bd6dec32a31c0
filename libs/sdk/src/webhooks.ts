import type { webhooks } from '@coin/contracts';
import { WebhookVerificationError } from './errors.ts';

/** The USER_ONBOARDING event, as the webhook body carries it (`requestId`: the onboard-users request's id). */
export type UserOnboardingEvent = webhooks.EventPayload<'USER_ONBOARDING'>;

/** Any webhook body: `event` tells the kind, `sequence` numbers the partner's deliveries 1, 2, 3…. */
export type WebhookEvent = { [K in webhooks.EventKind]: webhooks.EventPayload<K> }[webhooks.EventKind];

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now; 5 minutes by default. */
  toleranceSeconds?: number;
  /** Seconds since the epoch; for tests. */
  now?: number;
}

function header(headers: HeaderBag, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  if (!one) throw new WebhookVerificationError(`missing ${name} header`);
  return one;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * Standard Webhooks verification: the timestamp within tolerance, then one of the `v1,` signatures
 * in `webhook-signature` equal to HMAC-SHA256 of `id.timestamp.body` under the secret. Pass the raw
 * body exactly as received (before any JSON parsing). Returns the parsed event; throws
 * WebhookVerificationError otherwise. Web Crypto, so it runs in Node, Deno, workers and browsers;
 * `subtle.verify` compares in constant time.
 */
export async function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  body: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  const now = options.now ?? Date.now() / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp is missing or too far from now');
  }
  let key: Awaited<ReturnType<typeof crypto.subtle.importKey>>;
  try {
    key = await crypto.subtle.importKey(
      'raw',
      fromBase64(secret.replace(/^whsec_/, '')),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
  } catch {
    throw new WebhookVerificationError('the secret is not a whsec_ base64 key');
  }
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',');
    if (version !== 'v1' || !value) continue;
    let given: Uint8Array<ArrayBuffer>;
    try {
      given = fromBase64(value);
    } catch {
      continue;
    }
    if (await crypto.subtle.verify('HMAC', key, given, signed)) return JSON.parse(body) as WebhookEvent;
  }
  throw new WebhookVerificationError('no webhook-signature matches the body');
}
