import { LARGE_REQUEST_BYTES, LARGE_REQUEST_CAPACITY } from '@coin/contracts/validation-pool';
import { AppError } from '@coin/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON body left as text for a worker thread to parse with the operation's contract. */
export class UnparsedJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Route config of the operation routes, which validate large bodies off the event loop. */
export const LARGE_BODY_ROUTE = { largeBodyOffThread: true };

/** Whether this body is left to a worker: an operation route's, and large. */
export function leaveUnparsed(request: FastifyRequest, body: string): boolean {
  const config = request.routeOptions.config as Partial<typeof LARGE_BODY_ROUTE>;
  return config.largeBodyOffThread === true && body.length > LARGE_REQUEST_BYTES;
}

/** The retry a refused large body is advised: about the time the ones admitted take. */
const RETRY_AFTER_SECONDS = 5;

export type LargeBodyAdmission = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * An onRequest hook (after authentication) that counts the large bodies this gateway is reading,
 * queueing or validating, and refuses one more than the worker pool takes with 503 and Retry-After
 * before reading it: each holds up to its route's limit in the heap until validated.
 */
export function largeBodyAdmission(capacity = LARGE_REQUEST_CAPACITY): LargeBodyAdmission {
  let admitted = 0;
  return async (request, reply) => {
    if (request.routeOptions.bodyLimit <= LARGE_REQUEST_BYTES) return;
    const declared = request.headers['content-length'];
    const large =
      declared === undefined
        ? request.headers['transfer-encoding'] !== undefined
        : Number(declared) > LARGE_REQUEST_BYTES;
    if (!large) return;
    if (admitted >= capacity)
      throw AppError.unavailable(
        `${capacity} large requests are being received or validated already; retry in a few seconds`,
        RETRY_AFTER_SECONDS,
      );
    admitted++;
    reply.raw.once('close', () => {
      admitted--;
    });
  };
}
