import {
  type Context,
  context,
  propagation,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';

/** The subset of a NATS `MsgHdrs` the propagator needs; keeps this lib free of NATS types. */
export interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
  keys(): string[];
}

const setter: TextMapSetter<HeaderCarrier> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

const getter: TextMapGetter<HeaderCarrier> = {
  get: (carrier, key) => carrier.get(key) || undefined,
  keys: (carrier) => carrier.keys(),
};

/** Writes W3C `traceparent`/`tracestate` of the active (or given) context into message headers. */
export function injectTraceContext(carrier: HeaderCarrier, ctx: Context = context.active()): void {
  propagation.inject(ctx, carrier, setter);
}

export function extractTraceContext(carrier: HeaderCarrier | undefined): Context {
  return carrier ? propagation.extract(context.active(), carrier, getter) : context.active();
}

/** Plain-object form, for an outbox row that keeps the context of the call that wrote it. */
export function serializeTraceContext(ctx: Context = context.active()): Record<string, string> {
  const out: Record<string, string> = {};
  propagation.inject(ctx, out);
  return out;
}

export function deserializeTraceContext(carrier: Record<string, string> | null | undefined): Context {
  return carrier ? propagation.extract(context.active(), carrier) : context.active();
}
