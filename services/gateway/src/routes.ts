import { callOperationJson, type NatsConnection, SerializedJson } from '@coin/bus';
import {
  type Actor,
  bodyLimitOf,
  INTERNAL_IDEMPOTENCY_PREFIX,
  type Operation,
  type PartsResult,
  parseRequestParts,
} from '@coin/contracts';
import { validateLargeRequest } from '@coin/contracts/validation-pool';
import { AppError, success } from '@coin/errors';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { answerCache, freshnessOf } from './answer-cache.ts';
import { type Authenticator, authenticateFirst } from './authenticate-first.ts';
import type { GatewayConfig } from './config.ts';
import { cutoffsOf } from './cutoffs.ts';
import { LARGE_BODY_ROUTE, type LargeBodyAdmission, UnparsedJson } from './large-body.ts';
import type { Principal } from './principal.ts';
import { type Revocations, revokeCallerToken, writeCutoffs } from './revocations.ts';

interface RouteDeps {
  nc: NatsConnection;
  config: GatewayConfig;
  authenticate: Authenticator;
  revocations: Revocations;
  admitLargeBody: LargeBodyAdmission;
  /** The per-partner limit of operations a partner triggers by hand (`rateLimit: 'partner'`). */
  partnerLimit: onRequestHookHandler;
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

/**
 * A large body is parsed and validated on a worker thread, so that it stalls no other request; it
 * comes back as JSON text and is forwarded as such.
 */
async function validateParts(
  op: Operation,
  body: unknown,
  query: unknown,
  params: unknown,
): Promise<PartsResult> {
  if (!(body instanceof UnparsedJson)) return parseRequestParts(op, { body, query, params });
  const parts = await validateLargeRequest(op, {
    json: body.text,
    shape: 'body',
    serializeBody: true,
    query,
    params,
  });
  return parts.ok && parts.bodyJson !== undefined
    ? { ...parts, body: new SerializedJson(parts.bodyJson) }
    : parts;
}

/** Who calls, for the audit log of what the call changes (identity names a member by e-mail). */
function actorOf(caller: Principal): Actor {
  return { memberId: caller.memberId ?? null, email: null, apiKeyId: caller.keyId ?? null };
}

function locationOf(template: string, json: Uint8Array): string {
  const data = JSON.parse(Buffer.from(json).toString()) as Record<string, unknown>;
  return template.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(data[key])));
}

/**
 * `success(message, data)` as JSON, with the service's answer spliced in as the JSON it came as:
 * parsing it only to serialize it again cost CPU on every answer.
 */
function successEnvelope(message: string, noData: boolean | undefined) {
  const plain = JSON.stringify(success(message));
  const withoutData = Buffer.from(plain);
  const head = Buffer.from(`${plain.slice(0, -1)},"data":`);
  const tail = Buffer.from('}');
  return (json: Uint8Array): Buffer =>
    noData || json.length === 0 ? withoutData : Buffer.concat([head, json, tail]);
}

/**
 * One route per contract operation: authenticate (before the body is read, which is then limited to
 * the contract's `bodyLimit`), validate with the contract, ask the service (or, for an operation
 * with `freshForMs`, take its answer from the cache, keyed by what was validated).
 */
export function registerOperationRoutes(
  app: FastifyInstance,
  operations: readonly Operation[],
  deps: RouteDeps,
): void {
  const cachedAnswer = answerCache(deps.config.ANSWER_CACHE_MAX_BYTES);
  for (const op of operations) {
    const http = op.http;
    if (!http) continue;
    const envelope = successEnvelope(http.message, http.noData);
    const freshForMs = freshnessOf(op);
    app.route({
      method: [http.method, ...(http.alsoMethods ?? [])],
      url: http.path,
      bodyLimit: bodyLimitOf(op),
      onRequest: [
        ...(http.auth === 'partner' ? [authenticateFirst(deps.authenticate, op)] : []),
        ...(http.rateLimit === 'partner' ? [deps.partnerLimit] : []),
        deps.admitLargeBody,
      ],
      config: {
        ...LARGE_BODY_ROUTE,
        ...(http.rateLimit === 'auth' ? { rateLimit: { max: deps.config.AUTH_RATE_LIMIT_MAX } } : {}),
      },
      handler: async (request, reply) => {
        const requestId = String(request.id);
        const caller = request.caller;
        const startedAt = Date.now();
        const parts = await validateParts(op, request.body, request.query, request.params);
        if (!parts.ok) throw AppError.badRequest(parts.error);
        const { body, query, params } = parts;
        const ask = () =>
          callOperationJson(
            deps.nc,
            op,
            {
              partnerId: caller?.partnerId,
              body,
              query,
              params,
              idempotencyKey: idempotencyKey(op, request.headers['idempotency-key']),
              clientIp: request.ip,
              actor: caller && actorOf(caller),
            },
            { timeoutMs: deps.config.REQUEST_TIMEOUT_MS, requestId },
          );
        const json =
          freshForMs !== undefined && caller
            ? await cachedAnswer({ op, partnerId: caller.partnerId, query, params }, freshForMs, ask)
            : await ask();
        if (http.endsSession && caller) await revokeCallerToken(deps.revocations, caller);
        if (http.cutoff)
          await writeCutoffs(deps.revocations, cutoffsOf(http.cutoff, caller, params, json), startedAt);
        if (http.location) reply.header('location', locationOf(http.location, json));
        return reply
          .code(http.statusCode ?? 200)
          .type('application/json; charset=utf-8')
          .send(envelope(json));
      },
    });
  }
}
