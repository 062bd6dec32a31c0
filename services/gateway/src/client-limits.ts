import { clientKey } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config.ts';

type Count = ReturnType<FastifyInstance['createRateLimit']>;

/** An onRequest hook from a counter of @fastify/rate-limit: RateLimit headers, 429 once over. */
function limitHook(count: Count, refusal: string, headers: boolean) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const counted = await count(request);
    // Redis unreachable (skipOnError) counts nothing: requests go through rather than every one failing.
    if (counted.isAllowed || counted.ttl === 0) return;
    if (headers) {
      reply.header('x-ratelimit-limit', counted.max);
      reply.header('x-ratelimit-remaining', counted.remaining);
      reply.header('x-ratelimit-reset', counted.ttlInSeconds);
    }
    if (counted.isExceeded) throw AppError.rateLimited(refusal, Math.max(1, counted.ttlInSeconds));
  };
}

/**
 * The per-client limit of every request, known route or not, counted in Redis (shared by the
 * gateway replicas) before anything else of the request runs: before authentication, before a
 * byte of a body is read. Registered first among the onRequest hooks that may answer.
 */
export function limitEveryClient(app: FastifyInstance, config: GatewayConfig): void {
  const count = app.createRateLimit({
    max: config.CLIENT_RATE_LIMIT_MAX,
    timeWindow: config.CLIENT_RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request) => `client:${clientKey(request.ip)}`,
  });
  app.addHook('onRequest', limitHook(count, 'too many requests from this client address; slow down', true));
}

/**
 * A limit per partner for an operation a partner triggers by hand (redelivering a webhook): run
 * after authentication, counted in Redis.
 */
export function perPartnerLimit(app: FastifyInstance, config: GatewayConfig) {
  const count = app.createRateLimit({
    max: config.PARTNER_ACTION_RATE_LIMIT_MAX,
    timeWindow: config.PARTNER_ACTION_RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request) => `partner:${request.caller?.partnerId}:${request.routeOptions.url}`,
  });
  return limitHook(count, 'too many of these calls by this partner; try again later', false);
}
