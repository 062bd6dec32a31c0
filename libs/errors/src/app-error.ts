export type ErrorType =
  | 'invalid'
  | 'unauthorized'
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
 * specification's envelope, and crosses NATS as `Nats-Service-Error-Code` + JSON details.
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

  static badRequest(error: string): AppError {
    return new AppError(400, {
      errorType: 'invalid',
      appErrorCode: 'Bad request',
      error,
      message: 'invalid data provided',
    });
  }

  static unauthorized(error = 'authentication required'): AppError {
    return new AppError(401, {
      errorType: 'unauthorized',
      appErrorCode: 'UNAUTHORIZED',
      error,
      message: 'unauthorized',
    });
  }

  static notFound(error: string): AppError {
    return new AppError(404, {
      errorType: 'not_found',
      appErrorCode: 'NOT_FOUND',
      error,
      message: 'not found',
    });
  }

  static conflict(error: string, appErrorCode = 'DUPLICATE', message = 'conflict'): AppError {
    return new AppError(409, { errorType: 'conflict', appErrorCode, error, message });
  }

  static unprocessable(appErrorCode: string, error: string): AppError {
    return new AppError(422, {
      errorType: 'unprocessable',
      appErrorCode,
      error,
      message: 'request cannot be processed',
    });
  }

  static rateLimited(error: string, retryAfterSeconds: number): AppError {
    return new AppError(429, {
      errorType: 'rate_limited',
      appErrorCode: 'RATE_LIMITED',
      error,
      message: 'too many requests',
      retryAfterSeconds,
    });
  }

  static payloadTooLarge(error: string): AppError {
    return new AppError(413, {
      errorType: 'invalid',
      appErrorCode: 'PAYLOAD_TOO_LARGE',
      error,
      message: 'payload too large',
    });
  }

  static unavailable(error: string): AppError {
    return new AppError(503, {
      errorType: 'unavailable',
      appErrorCode: 'SERVICE_UNAVAILABLE',
      error,
      message: 'service unavailable',
    });
  }

  static timeout(error: string): AppError {
    return new AppError(504, {
      errorType: 'unavailable',
      appErrorCode: 'SERVICE_TIMEOUT',
      error,
      message: 'service timeout',
    });
  }

  static internal(error = 'internal error'): AppError {
    return new AppError(500, {
      errorType: 'internal',
      appErrorCode: 'INTERNAL',
      error,
      message: 'internal error',
    });
  }
}
