import type { Logger } from '@coin/telemetry';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { registerHealthRoutes } from './health.ts';
import { registerMetricsRoute } from './observability.ts';

/**
 * The admin port (METRICS_PORT): `/metrics`, `/health` and the detailed `/ready`, for Prometheus
 * and operators inside the cluster; never routed by the Ingress, which sends only the public port.
 */
export async function startAdminServer(opts: {
  port: number;
  host: string;
  log: Logger;
  readiness: Parameters<typeof registerHealthRoutes>[1];
}): Promise<FastifyInstance> {
  const admin: FastifyInstance = Fastify({
    loggerInstance: opts.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerHealthRoutes(admin, opts.readiness, { detailed: true });
  registerMetricsRoute(admin);
  const url = await admin.listen({ port: opts.port, host: opts.host });
  opts.log.info({ address: url }, 'gateway admin port listening');
  return admin;
}
