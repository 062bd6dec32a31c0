import { counter, histogram } from '@coin/telemetry';

/** Time a service spends on one request, by operation and the HTTP-style status it answered. */
export const handlerDuration = histogram({
  name: 'coin_bus_handler_duration_seconds',
  help: 'Time a service took to handle one NATS request, by service, operation and status',
  labelNames: ['service', 'operation', 'status'] as const,
});

/** Time a caller waited for an answer, as seen from the calling process. */
export const requestDuration = histogram({
  name: 'coin_bus_request_duration_seconds',
  help: 'Time from sending a NATS request to its reply, by target service, operation and status',
  labelNames: ['service', 'operation', 'status'] as const,
});

/** Requests that got no answer at all: nobody listening, too slow, or NATS unreachable. */
export const requestFailures = counter({
  name: 'coin_bus_request_failures_total',
  help: 'NATS requests without a reply, by target service, operation and reason (no_responders, timeout, unreachable)',
  labelNames: ['service', 'operation', 'reason'] as const,
});
