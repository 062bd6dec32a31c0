import { callOperation, type NatsConnection } from '@coin/bus';
import { formatIssue, INTERNAL_IDEMPOTENCY_PREFIX, type Operation } from '@coin/contracts';
import { AppError, success } from '@coin/errors';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { createAuthenticator } from './authenticate.ts';
import type { GatewayConfig } from './config.ts';

interface RouteDeps {
  nc: NatsConnection;
  config: GatewayConfig;
  authenticate: ReturnType<typeof createAuthenticator>;
}

function parse(schema: z.ZodType | undefined, value: unknown, subject: string): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw AppError.badRequest(formatIssue(parsed.error, subject));
  return parsed.data;
}

function idempotencyKey(op: Operation, header: string | string[] | undefined): string | undefined {
  if (!op.http?.idempotent || header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key.length === 0 || key.length > 255)
    throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters');
  if (key.startsWith(INTERNAL_IDEMPOTENCY_PREFIX)) {
    throw AppError.badRequest(`Idempotency-Key must not start with ${INTERNAL_IDEMPOTENCY_PREFIX}`);
  }
  return key;
}

/** One route per contract operation: authenticate, validate with the contract, ask the service. */
export function registerOperationRoutes(
  app: FastifyInstance,
  operations: readonly Operation[],
  deps: RouteDeps,
): void {
  for (const op of operations) {
    const http = op.http;
    if (!http) continue;
    app.route({
      method: [http.method, ...(http.alsoMethods ?? [])],
      url: http.path,
      config: http.rateLimit === 'auth' ? { rateLimit: { max: deps.config.AUTH_RATE_LIMIT_MAX } } : {},
      handler: async (request, reply) => {
        const requestId = String(request.id);
        const caller =
          http.auth === 'partner'
            ? await deps.authenticate(request.headers.authorization, requestId)
            : undefined;
        // No body is an empty one: optional-only bodies (logout) need none, others name what is missing.
        const body = parse(op.schemas.body, request.body ?? {}, 'body');
        const query = parse(op.schemas.query, request.query, 'query');
        const params = parse(op.schemas.params, request.params, 'params');
        const data = await callOperation(
          deps.nc,
          op,
          {
            partnerId: caller?.partnerId,
            body,
            query,
            params,
            idempotencyKey: idempotencyKey(op, request.headers['idempotency-key']),
            clientIp: request.ip,
          },
          { timeoutMs: deps.config.REQUEST_TIMEOUT_MS, requestId },
        );
        return reply.code(http.statusCode ?? 200).send(success(http.message, http.noData ? undefined : data));
      },
    });
  }
}
