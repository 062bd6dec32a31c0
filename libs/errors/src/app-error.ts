export type ErrorType =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export interface ErrorDetails {
  errorType: ErrorType;
  appErrorCode: string;
  error: string;
  message: string;
  retryAfterSeconds?: number;
}

/**
 * The one error type of the system. It carries everything the gateway needs to build the
 * envelope of the specification (docs/specification.md), and crosses NATS as
 * `Nats-Service-Error-Code` + JSON details.
 */
export class AppError extends Error {
  readonly status: number;
  readonly details: ErrorDetails;

  constructor(status: number, details: ErrorDetails) {
    super(details.error || details.message);
    this.name = 'AppError';
    this.status = status;
    this.details = details;
  }

  /** One of the kinds below: its status, envelope type, code and message, with the case's own `error` text. */
  private static of(
    status: number,
    errorType: ErrorType,
    appErrorCode: string,
    message: string,
    error: string,
    more: Partial<ErrorDetails> = {},
  ): AppError {
    return new AppError(status, { errorType, appErrorCode, error, message, ...more });
  }

  static badRequest(error: string): AppError {
    return AppError.of(400, 'invalid', 'Bad request', 'invalid data provided', error);
  }

  static unauthorized(error = 'authentication required'): AppError {
    return AppError.of(401, 'unauthorized', 'UNAUTHORIZED', 'unauthorized', error);
  }

  /** Authenticated, but the credential may not do this; `error` names what it lacks. */
  static forbidden(error: string, appErrorCode = 'FORBIDDEN'): AppError {
    return AppError.of(403, 'forbidden', appErrorCode, 'forbidden', error);
  }

  static notFound(error: string): AppError {
    return AppError.of(404, 'not_found', 'NOT_FOUND', 'not found', error);
  }

  static conflict(error: string, appErrorCode = 'DUPLICATE', message = 'conflict'): AppError {
    return AppError.of(409, 'conflict', appErrorCode, message, error);
  }

  static unprocessable(appErrorCode: string, error: string): AppError {
    return AppError.of(422, 'unprocessable', appErrorCode, 'request cannot be processed', error);
  }

  static rateLimited(error: string, retryAfterSeconds: number): AppError {
    return AppError.of(429, 'rate_limited', 'RATE_LIMITED', 'too many requests', error, {
      retryAfterSeconds,
    });
  }

  static payloadTooLarge(error: string): AppError {
    return AppError.of(413, 'invalid', 'PAYLOAD_TOO_LARGE', 'payload too large', error);
  }

  static unavailable(error: string, retryAfterSeconds?: number): AppError {
    return AppError.of(
      503,
      'unavailable',
      'SERVICE_UNAVAILABLE',
      'service unavailable',
      error,
      retryAfterSeconds === undefined ? {} : { retryAfterSeconds },
    );
  }

  static timeout(error: string): AppError {
    return AppError.of(504, 'unavailable', 'SERVICE_TIMEOUT', 'service timeout', error);
  }

  static internal(error = 'internal error'): AppError {
    return AppError.of(500, 'internal', 'INTERNAL', 'internal error', error);
  }
}
