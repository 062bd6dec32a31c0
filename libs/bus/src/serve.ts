import {
  actorSchema,
  guid,
  type Operation,
  type PartsResult,
  parseRequestParts,
  type RequestOf,
  type ResponseOf,
} from '@coin/contracts';
import { LARGE_REQUEST_BYTES, validateLargeRequest } from '@coin/contracts/validation-pool';
import { AppError } from '@coin/errors';
import { extractTraceContext, type Logger, messagingSpan } from '@coin/telemetry';
import { headers, type Msg, type NatsConnection, nuid, type Subscription } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { bodyOf, needsOffload, offloadInto } from './large-payload.ts';
import { handlerDuration } from './metrics.ts';
import { namesOf } from './namespace.ts';
import { decodeJson, encodeJson, REQUEST_ID_HEADER, setErrorHeaders } from './wire.ts';

export interface HandlerContext {
  requestId: string;
  log: Logger;
}

export type Handler<O extends Operation> = (
  request: RequestOf<O>,
  ctx: HandlerContext,
) => Promise<ResponseOf<O>>;

export interface BoundHandler {
  op: Operation;
  run: (request: RequestOf<Operation>, ctx: HandlerContext) => Promise<unknown>;
}

/** Pairs an operation with its handler, keeping the handler's types tied to the contract. */
export function handle<O extends Operation>(op: O, handler: Handler<O>): BoundHandler {
  return { op, run: handler as BoundHandler['run'] };
}

export interface ServeOptions {
  service: string;
  version: string;
  description?: string;
  handlers: readonly BoundHandler[];
  log: Logger;
  /** Wraps each handler run, e.g. in a MikroORM RequestContext. */
  around?: <T>(fn: () => Promise<T>) => Promise<T>;
}

interface EndpointStats {
  name: string;
  subject: string;
  queue_group: string;
  num_requests: number;
  num_errors: number;
  last_error: string;
  processing_time: number;
  average_processing_time: number;
}

export interface RunningService {
  id: string;
  stop(): Promise<void>;
}

/** The calling partner, required by an operation that needs one and dropped by one that does not. */
function partnerOf(op: Operation, value: unknown): string | undefined {
  if (!op.partner) return undefined;
  const parsed = guid.safeParse(value);
  if (!parsed.success) throw AppError.unauthorized(`${op.name} requires the calling partner's partnerId`);
  return parsed.data;
}

/** The handler's request from the envelope's own fields and its validated parts. */
function requestOf(op: Operation, r: Record<string, unknown>, parts: PartsResult): RequestOf<Operation> {
  const partnerId = partnerOf(op, r.partnerId);
  if (!parts.ok) throw AppError.badRequest(parts.error);
  return {
    partnerId,
    idempotencyKey: typeof r.idempotencyKey === 'string' ? r.idempotencyKey : undefined,
    clientIp: typeof r.clientIp === 'string' ? r.clientIp : undefined,
    actor: actorSchema.safeParse(r.actor).data,
    body: parts.body,
    query: parts.query,
    params: parts.params,
  } as RequestOf<Operation>;
}

/**
 * Validates at the service's own edge too: the bus is a public surface for other services. A large
 * request is parsed and validated on a worker thread, so that it stalls none of the service's others.
 */
async function validate(op: Operation, data: Uint8Array): Promise<RequestOf<Operation>> {
  if (data.length > LARGE_REQUEST_BYTES) {
    const result = await validateLargeRequest(op, { json: data, shape: 'envelope' });
    if (!result.envelope)
      throw AppError.badRequest(result.ok ? 'request must be a JSON object' : result.error);
    return requestOf(op, result.envelope, result);
  }
  const raw = decodeJson(data);
  if (typeof raw !== 'object' || raw === null) throw AppError.badRequest('request must be a JSON object');
  const r = raw as Record<string, unknown>;
  return requestOf(op, r, parseRequestParts(op, { body: r.body, query: r.query, params: r.params }));
}

/**
 * Serves a service's operations on their subjects (one queue group per service, so replicas share
 * the load) and answers the NATS micro protocol (`$SRV.PING|INFO|STATS`) so every replica can be
 * discovered. Every message gets exactly one reply, errors included. Not @nats-io/services: it costs
 * the same and is a pre-release on another NATS core
 * (docs/decisions/2026-11-28-bus-own-endpoints-and-payload-chunks.md).
 */
export function serveOperations(nc: NatsConnection, opts: ServeOptions): RunningService {
  const id = nuid.next();
  const started = new Date().toISOString();
  const inFlight = new Set<Promise<void>>();
  const subs: Subscription[] = [];
  const stats = new Map<string, EndpointStats>();
  const around = opts.around ?? ((fn) => fn());
  const names = namesOf(nc);

  async function process(bound: BoundHandler, msg: Msg, endpoint: EndpointStats): Promise<void> {
    const began = performance.now();
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || nuid.next();
    const log = opts.log.child({ requestId, op: bound.op.name });
    const parent = extractTraceContext(msg.headers);
    await messagingSpan(
      bound.op.subject,
      { verb: 'process', operation: 'process', kind: SpanKind.SERVER, parent },
      async (span) => {
        const h = headers();
        let payload: Uint8Array;
        let status = 200;
        try {
          const data = await bodyOf(nc, msg);
          const request = await validate(bound.op, data);
          const result = await around(() => bound.run(request, { requestId, log }));
          payload = encodeJson(result);
          if (needsOffload(nc, payload)) {
            await offloadInto(nc, payload, h);
            payload = new Uint8Array(0);
          }
        } catch (err) {
          let appErr: AppError;
          if (err instanceof AppError) {
            appErr = err;
          } else if (err instanceof SyntaxError) {
            appErr = AppError.badRequest('request must be valid JSON');
          } else {
            appErr = AppError.internal();
            log.error({ err }, 'handler failed');
          }
          if (appErr.status >= 500) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: appErr.details.error });
            endpoint.num_errors += 1;
            endpoint.last_error = appErr.details.error;
          }
          status = appErr.status;
          span.setAttribute('rpc.response.status_code', appErr.status);
          setErrorHeaders(h, appErr);
          payload = encodeJson(appErr.details);
        }
        try {
          msg.respond(payload, { headers: h });
        } catch (err) {
          log.warn({ err }, 'reply could not be sent');
        }
        const elapsedMs = performance.now() - began;
        handlerDuration.observe(
          { service: opts.service, operation: bound.op.name, status: String(status) },
          elapsedMs / 1000,
        );
        const elapsedNs = Math.round(elapsedMs * 1e6);
        endpoint.num_requests += 1;
        endpoint.processing_time += elapsedNs;
        endpoint.average_processing_time = Math.round(endpoint.processing_time / endpoint.num_requests);
      },
    );
  }

  for (const bound of opts.handlers) {
    const endpoint: EndpointStats = {
      name: bound.op.name,
      subject: names.subject(bound.op.subject),
      queue_group: opts.service,
      num_requests: 0,
      num_errors: 0,
      last_error: '',
      processing_time: 0,
      average_processing_time: 0,
    };
    stats.set(bound.op.name, endpoint);
    subs.push(
      nc.subscribe(names.subject(bound.op.subject), {
        queue: opts.service,
        callback: (err, msg) => {
          if (err) {
            opts.log.error({ err, subject: bound.op.subject }, 'subscription failed');
            return;
          }
          // A request nobody can receive the answer of is not one: a message published without a
          // reply subject (by a stream's republish, a push consumer, a forged publish) runs nothing.
          if (!msg.reply) {
            opts.log.warn({ subject: msg.subject }, 'message without a reply subject ignored');
            return;
          }
          const p = process(bound, msg, endpoint).finally(() => inFlight.delete(p));
          inFlight.add(p);
        },
      }),
    );
  }

  const identity = { name: opts.service, id, version: opts.version, metadata: {} };
  const answers: Record<string, () => unknown> = {
    PING: () => ({ type: 'io.nats.micro.v1.ping_response', ...identity }),
    INFO: () => ({
      type: 'io.nats.micro.v1.info_response',
      ...identity,
      description: opts.description ?? '',
      endpoints: [...stats.values()].map((e) => ({
        name: e.name,
        subject: e.subject,
        queue_group: e.queue_group,
        metadata: {},
      })),
    }),
    STATS: () => ({
      type: 'io.nats.micro.v1.stats_response',
      ...identity,
      started,
      endpoints: [...stats.values()],
    }),
  };
  for (const [verb, answer] of Object.entries(answers)) {
    for (const subject of [
      `$SRV.${verb}`,
      `$SRV.${verb}.${names.micro(opts.service)}`,
      `$SRV.${verb}.${names.micro(opts.service)}.${id}`,
    ]) {
      subs.push(
        nc.subscribe(subject, {
          callback: (err, msg) => {
            if (!err) msg.respond(encodeJson(answer()));
          },
        }),
      );
    }
  }

  return {
    id,
    async stop() {
      await Promise.all(subs.map((s) => s.drain().catch(() => undefined)));
      await Promise.allSettled([...inFlight]);
    },
  };
}
