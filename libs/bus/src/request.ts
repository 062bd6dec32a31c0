import type { CallRequestOf, Operation, ResponseOf } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { injectTraceContext, messagingSpan } from '@coin/telemetry';
import { headers, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { bodyOf, needsOffload, offloadInto } from './large-payload.ts';
import { requestDuration, requestFailures } from './metrics.ts';
import { namesOf } from './namespace.ts';
import { failureReason, repliesOf } from './replies.ts';
import { decodeJson, encodeRequest, REQUEST_ID_HEADER, replyError } from './wire.ts';

export interface CallOptions {
  timeoutMs: number;
  requestId?: string;
}

function toAppError(err: unknown, op: Operation): AppError {
  if (err instanceof AppError) return err;
  switch (failureReason(err)) {
    case 'no_responders':
      return AppError.unavailable(`${op.service} service is unavailable`);
    case 'timeout':
      return AppError.timeout(`${op.service} service did not answer in time`);
    default:
      return AppError.unavailable(`${op.service} service could not be reached`);
  }
}

/**
 * Typed request-reply for one contract operation. Errors come back as AppError: the remote one
 * as it was thrown, no responders as 503, a timeout as 504.
 */
export async function callOperation<O extends Operation>(
  nc: NatsConnection,
  op: O,
  request: CallRequestOf<O>,
  options: CallOptions,
): Promise<ResponseOf<O>> {
  return decodeJson(await callOperationJson(nc, op, request, options)) as ResponseOf<O>;
}

/**
 * `callOperation`'s answer as the JSON the service wrote, not parsed: for a caller that only
 * forwards it (the gateway puts it into its HTTP answer as it is).
 */
export async function callOperationJson<O extends Operation>(
  nc: NatsConnection,
  op: O,
  request: CallRequestOf<O>,
  options: CallOptions,
): Promise<Uint8Array> {
  return messagingSpan(
    op.subject,
    { verb: 'request', operation: 'send', kind: SpanKind.CLIENT },
    async (span) => {
      const began = performance.now();
      let status = 200;
      try {
        const h = headers();
        if (options.requestId) h.set(REQUEST_ID_HEADER, options.requestId);
        injectTraceContext(h);
        let payload = encodeRequest(request);
        if (needsOffload(nc, payload)) {
          await offloadInto(nc, payload, h);
          payload = new Uint8Array(0);
        }
        let reply: Msg;
        try {
          reply = await repliesOf(nc).request(namesOf(nc).subject(op.subject), payload, h, options.timeoutMs);
        } catch (err) {
          requestFailures.inc({ service: op.service, operation: op.name, reason: failureReason(err) });
          throw toAppError(err, op);
        }
        const remote = replyError(reply);
        if (remote) throw remote;
        return await bodyOf(nc, reply);
      } catch (err) {
        const appErr = err instanceof AppError ? err : toAppError(err, op);
        status = appErr.status;
        span.setAttribute('rpc.response.status_code', appErr.status);
        if (appErr.status >= 500)
          span.setStatus({ code: SpanStatusCode.ERROR, message: appErr.details.error });
        throw appErr;
      } finally {
        requestDuration.observe(
          { service: op.service, operation: op.name, status: String(status) },
          (performance.now() - began) / 1000,
        );
      }
    },
  );
}
