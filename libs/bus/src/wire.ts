import { AppError, type ErrorDetails } from '@coin/errors';
import type { Msg, MsgHdrs } from '@nats-io/transport-node';

const ERROR_CODE_HEADER = 'Nats-Service-Error-Code';
const ERROR_HEADER = 'Nats-Service-Error';
export const REQUEST_ID_HEADER = 'Request-Id';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value ?? null));
}

/**
 * A request body already validated and serialized (by a worker thread, for a large request): it is
 * put into the request as it is, not parsed and serialized again on the event loop.
 */
export class SerializedJson {
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
}

/** A bus request; a `SerializedJson` body is spliced in as its text. */
export function encodeRequest(request: { body?: unknown }): Uint8Array {
  if (!(request.body instanceof SerializedJson)) return encodeJson(request);
  const head = JSON.stringify({ ...request, body: undefined });
  return encoder.encode(`${head.slice(0, -1)}${head === '{}' ? '' : ','}"body":${request.body.json}}`);
}

export function decodeJson(data: Uint8Array): unknown {
  return data.length === 0 ? undefined : JSON.parse(decoder.decode(data));
}

/** A reply that carries the NATS micro error headers is turned back into the AppError it was. */
export function replyError(msg: Msg): AppError | undefined {
  const code = msg.headers?.get(ERROR_CODE_HEADER);
  if (!code) return undefined;
  let details: Partial<ErrorDetails> = {};
  try {
    details = (decodeJson(msg.data) ?? {}) as Partial<ErrorDetails>;
  } catch {
    details = {};
  }
  const status = Number(code);
  const text = msg.headers?.get(ERROR_HEADER) ?? 'error';
  return new AppError(Number.isInteger(status) ? status : 500, {
    errorType: details.errorType ?? 'internal',
    appErrorCode: details.appErrorCode ?? 'INTERNAL',
    error: details.error ?? text,
    message: details.message ?? text,
    retryAfterSeconds: details.retryAfterSeconds,
  });
}

export function setErrorHeaders(h: MsgHdrs, err: AppError): void {
  h.set(ERROR_CODE_HEADER, String(err.status));
  h.set(ERROR_HEADER, (err.details.error || err.details.message).replace(/[\r\n]+/g, ' ').slice(0, 500));
}
