import type { OperationErrorCodes } from './error-codes.ts';
import type { OperationName } from './operations.ts';

/** The failure envelope of the API's specification (docs/specification.md, "Errors"), as the API sent it. */
export interface FailureBody {
  status: 'failed';
  message: string;
  data: { errorType: string; appErrorCode: string; error: string };
}

/**
 * The `appErrorCode` values operation `K` can answer (from the API reference's documented errors),
 * or `HTTP_<status>` when an answer came without the API's envelope (a proxy's error page).
 */
export type ErrorCodeOf<K extends OperationName> = OperationErrorCodes[K] | `HTTP_${number}`;

export interface CoinApiErrorInit<K extends OperationName> {
  status: number;
  body: FailureBody | undefined;
  requestId?: string;
  retryAfterSeconds?: number;
  operation?: K;
}

/** The API answered with its failure envelope (or, for a proxy's error page, with none). */
export class CoinApiError<K extends OperationName = OperationName> extends Error {
  readonly status: number;
  readonly errorType: string;
  readonly appErrorCode: ErrorCodeOf<K>;
  /** The field-level text, e.g. `users[1].userId must be a valid GUID`. */
  readonly error: string;
  readonly requestId: string | undefined;
  /** Seconds to wait, from `Retry-After` (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  /** The SDK method that was called. */
  readonly operation: K | undefined;

  constructor(init: CoinApiErrorInit<K>) {
    const { status, body } = init;
    const error = body?.data?.error ?? `HTTP ${status} without the API's envelope`;
    super(error);
    this.name = 'CoinApiError';
    this.status = status;
    this.errorType = body?.data?.errorType ?? 'unknown';
    this.appErrorCode = (body?.data?.appErrorCode ?? `HTTP_${status}`) as ErrorCodeOf<K>;
    this.error = error;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.operation = init.operation;
  }
}

/**
 * Whether `err` is the API's refusal, of `operation` when given: its `appErrorCode` is then typed
 * as the codes that operation can answer, e.g.
 * `if (isCoinApiError(err, 'transferToUser') && err.appErrorCode === 'ISSUANCE_LIMIT_REACHED')`.
 */
export function isCoinApiError<K extends OperationName = OperationName>(
  err: unknown,
  operation?: K,
): err is CoinApiError<K> {
  return err instanceof CoinApiError && (operation === undefined || err.operation === operation);
}

/** No answer at all: the connection failed or the per-attempt timeout passed. */
export class CoinNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CoinNetworkError';
  }
}

/** A webhook whose signature or timestamp does not check out: do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
