import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, failure } from '@coin/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyTooLarge, lingerForUnreadBody } from './body-limits.ts';

function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (!reply.request.raw.complete) lingerForUnreadBody(reply);
  if (err.details.retryAfterSeconds !== undefined)
    reply.header('Retry-After', String(err.details.retryAfterSeconds));
  // RFC 6750: a 401 names its scheme; with a token that was sent, also that the token is the problem.
  if (err.status === 401) {
    const sent = reply.request.headers.authorization !== undefined;
    reply.header('WWW-Authenticate', `Bearer realm="coin-rewards"${sent ? ', error="invalid_token"' : ''}`);
  }
  return reply.code(err.status).type('application/json').send(failure(err));
}

/** Fastify's own errors (parsing, limits) mapped onto the envelope of docs/specification.md ("Errors"). */
function fromFastify(err: FastifyError, request: FastifyRequest): AppError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(request);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, {
        errorType: 'invalid',
        appErrorCode: 'UNSUPPORTED_MEDIA_TYPE',
        error: 'Content-Type must be application/json',
        message: 'unsupported media type',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return AppError.badRequest('body must not be empty when Content-Type is application/json');
    default:
      break;
  }
  if (err instanceof SyntaxError || err.statusCode === 400)
    return AppError.badRequest('body must be valid JSON');
  if (err.statusCode === 413) return bodyTooLarge(request);
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

/**
 * The envelope for every error, and the 404 or 405 of an unknown route, answered from the request
 * line in an onRequest hook: its body is never read.
 */
export function installErrorHandling(app: FastifyInstance, allowedMethods: (path: string) => string[]): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const appErr = err instanceof AppError ? err : fromFastify(err, request);
    if (appErr.status >= 500 && !(err instanceof AppError)) request.log.error({ err }, 'request failed');
    return sendError(reply, appErr);
  });
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
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
  };
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return notFound(request, reply);
  });
  app.setNotFoundHandler(notFound);
}

/** Errors the router raises before any route runs (a URL it cannot decode, an over-long path parameter). */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appErr =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? AppError.badRequest('a path parameter is longer than 100 characters')
      : AppError.badRequest('the URL is not valid');
  sendError(reply, appErr);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (request line and headers over
 * 16 KB, malformed HTTP): the envelope written on the socket, instead of Fastify's own body.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const appErr =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError(431, {
          errorType: 'invalid',
          appErrorCode: 'HEADERS_TOO_LARGE',
          error: 'the request line and headers must be at most 16 KB',
          message: 'invalid request',
        })
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError(408, {
            errorType: 'invalid',
            appErrorCode: 'REQUEST_TIMEOUT',
            error: 'the request was not received in time',
            message: 'invalid request',
          })
        : AppError.badRequest('the request is not valid HTTP');
  if (socket.writable) {
    const body = JSON.stringify(failure(appErr));
    socket.write(
      `HTTP/1.1 ${appErr.status} ${STATUS_CODES[appErr.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
