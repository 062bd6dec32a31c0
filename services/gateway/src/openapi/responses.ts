import { docs, type Operation } from '@coin/contracts';
import { failureSchema } from './envelopes.ts';
import type { SchemaComponents } from './schemas.ts';

type Json = Record<string, unknown>;

const FAILURE: Record<number, { errorType: string; message: string; description: string }> = {
  400: { errorType: 'invalid', message: 'invalid data provided', description: 'Invalid input' },
  401: { errorType: 'unauthorized', message: 'unauthorized', description: 'Not authenticated' },
  403: { errorType: 'forbidden', message: 'forbidden', description: 'Not allowed to this credential' },
  404: { errorType: 'not_found', message: 'not found', description: 'Not found (or not yours)' },
  409: { errorType: 'conflict', message: 'conflict', description: 'Conflict' },
  413: { errorType: 'invalid', message: 'payload too large', description: 'Body too large' },
  415: { errorType: 'invalid', message: 'unsupported media type', description: 'Body is not JSON' },
  422: { errorType: 'unprocessable', message: 'request cannot be processed', description: 'Refused' },
  429: { errorType: 'rate_limited', message: 'too many requests', description: 'Rate limited' },
  503: { errorType: 'unavailable', message: 'service unavailable', description: 'A service is down' },
  504: {
    errorType: 'unavailable',
    message: 'service timeout',
    description: 'A service did not answer in time',
  },
};

/** The OpenAPI responses of one operation's errors, each code with an example. */
export function errorResponses(op: Operation, components: SchemaComponents): Json {
  const out: Json = {};
  for (const [status, list] of docs.errorsOf(op)) {
    const kind = FAILURE[status];
    const headers: Json = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
    if (status === 429 || status === 503)
      headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    const examples = Object.fromEntries(
      list.map((e, i) => [
        `${e.code || 'empty'}${list.filter((o) => o.code === e.code).length > 1 ? `_${i}` : ''}`,
        {
          summary: e.when,
          value: {
            status: 'failed',
            message: kind.message,
            data: { errorType: kind.errorType, appErrorCode: e.code, error: e.when },
          },
        },
      ]),
    );
    out[status] = {
      description: `${kind.description}: ${list.map((e) => `\`${e.code}\` ${e.when}`).join('; ')}`,
      headers,
      content: {
        'application/json': {
          schema: failureSchema(
            components,
            list.map((e) => e.code),
          ),
          examples,
        },
      },
    };
  }
  return out;
}
