import { LARGE_REQUEST_BYTES } from '@coin/contracts/validation-pool';
import type { FastifyRequest } from 'fastify';

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
