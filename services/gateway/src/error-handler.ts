import { AppError, failure } from '@coin/errors';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (err.details.retryAfterSeconds !== undefined)
    reply.header('Retry-After', String(err.details.retryAfterSeconds));
  // RFC 6750: a 401 names its scheme; with a token that was sent, also that the token is the problem.
  if (err.status === 401) {
    const sent = reply.request.headers.authorization !== undefined;
    reply.header('WWW-Authenticate', `Bearer realm="coin-rewards"${sent ? ', error="invalid_token"' : ''}`);
  }
  return reply.code(err.status).type('application/json').send(failure(err));
}

/** Fastify's own errors (parsing, limits) mapped onto the specification's envelope. */
function fromFastify(err: FastifyError): AppError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return AppError.payloadTooLarge('request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, {
        errorType: 'invalid',
        appErrorCode: 'UNSUPPORTED_MEDIA_TYPE',
        error: 'Content-Type must be application/json',
        message: 'unsupported media type',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return AppError.badRequest('body must not be empty when Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return AppError.badRequest('body must be valid JSON');
    default:
      break;
  }
  if (err instanceof SyntaxError || err.statusCode === 400)
    return AppError.badRequest('body must be valid JSON');
  if (err.statusCode === 413) return AppError.payloadTooLarge('request body is too large');
  if (err.statusCode === 429) return AppError.rateLimited('too many requests; slow down', 60);
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(err.statusCode, {
      errorType: 'invalid',
      appErrorCode: 'Bad request',
      error: err.message,
      message: 'invalid request',
    });
  }
  return AppError.internal();
}

export function installErrorHandling(app: FastifyInstance, allowedMethods: (path: string) => string[]): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const appErr = err instanceof AppError ? err : fromFastify(err);
    if (appErr.status >= 500 && !(err instanceof AppError)) request.log.error({ err }, 'request failed');
    return sendError(reply, appErr);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedMethods(path);
    if (allowed.length === 0)
      return sendError(reply, AppError.notFound(`route ${request.method} ${path} not found`));
    reply.header('Allow', allowed.join(', '));
    return sendError(
      reply,
      new AppError(405, {
        errorType: 'invalid',
        appErrorCode: 'METHOD_NOT_ALLOWED',
        error: `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        message: 'method not allowed',
      }),
    );
  });
}
