let started = false;

export function markTracingStarted(): void {
  started = true;
}

/**
 * Whether this process records spans (`startTracing` ran). Without it every span is a no-op, and a
 * plugin that only makes spans (the gateway's Fastify instrumentation) is pure cost per request.
 */
export function tracingStarted(): boolean {
  return started;
}
