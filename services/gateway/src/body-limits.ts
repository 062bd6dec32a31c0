import { formatBytes, NO_BODY_LIMIT_BYTES } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The 413 of a body over its route's limit (the contract's, or none for a route without a body),
 * naming the limit.
 */
export function bodyTooLarge(request: FastifyRequest): AppError {
  const { bodyLimit: limit, url } = request.routeOptions;
  const route = `${request.method} ${url ?? request.url.split('?')[0]}`;
  return AppError.payloadTooLarge(
    limit <= NO_BODY_LIMIT_BYTES
      ? `${route} takes no body (at most ${formatBytes(limit)})`
      : `the body of ${route} must be at most ${formatBytes(limit)} (${limit} bytes)`,
  );
}

/**
 * Refuses a body its route does not take from `Content-Length` alone, before authentication and
 * before a byte of it is read; a body without a length is cut off at the limit while it streams
 * (Fastify's per-route `bodyLimit`).
 */
export async function refuseDeclaredOversize(request: FastifyRequest): Promise<void> {
  const declared = Number(request.headers['content-length']);
  if (declared > request.routeOptions.bodyLimit) throw bodyTooLarge(request);
}

/**
 * `Expect: 100-continue` (curl sends it with large bodies): the client waits for a go-ahead before
 * sending its body. Node would give it as soon as the headers arrive; here it is given when the
 * body is about to be read, once the route, the declared size and the credentials passed, so a
 * refused body is never sent at all.
 */
export function continueOnlyWhenRead(app: FastifyInstance): void {
  app.server.on('checkContinue', (req, res) => app.server.emit('request', req, res));
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.headers.expect?.toLowerCase() === '100-continue') reply.raw.writeContinue();
    return payload;
  });
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const LINGER_MS = 2000;

/**
 * A refusal answered while the client is still sending its body. The answer says
 * `Connection: close`, so the client stops sending and takes it. Closing the socket at once would
 * reset it with the client's bytes unread, and a client still writing then often loses the answer
 * (EPIPE) before reading it; so, as nginx's lingering close does, the connection is half-closed after
 * the answer and what still arrives is read and dropped unparsed until the client closes, for at most
 * LINGER_MS. Node's server ends a `Connection: close` response by calling the socket's destroySoon:
 * this socket's is replaced by the lingering one.
 */
export function lingerForUnreadBody(reply: FastifyReply): void {
  reply.header('connection', 'close');
  const socket = reply.request.raw.socket;
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = () => {
    socket.end();
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(cut));
    socket.once('end', () => socket.destroy());
    socket.resume();
  };
}

const lingering = new WeakSet<object>();
