/** The specification's failure envelope, as the API sent it. */
export interface FailureBody {
  status: 'failed';
  message: string;
  data: { errorType: string; appErrorCode: string; error: string };
}

/** The API answered with its failure envelope (or, for a proxy's error page, with none). */
export class CoinApiError extends Error {
  readonly status: number;
  readonly errorType: string;
  readonly appErrorCode: string;
  /** The field-level text, e.g. `users[1].userId must be a valid GUID`. */
  readonly error: string;
  readonly requestId: string | undefined;
  /** Seconds to wait, from `Retry-After` (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    body: FailureBody | undefined,
    requestId: string | undefined,
    retryAfterSeconds: number | undefined,
  ) {
    const error = body?.data?.error ?? `HTTP ${status} without the API's envelope`;
    super(error);
    this.name = 'CoinApiError';
    this.status = status;
    this.errorType = body?.data?.errorType ?? 'unknown';
    this.appErrorCode = body?.data?.appErrorCode ?? `HTTP_${status}`;
    this.error = error;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }
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
