import { type NatsConnection, pingService, type ServiceInstance } from '@coin/bus';
import { AppError, failure, success } from '@coin/errors';
import type { FastifyInstance } from 'fastify';

/**
 * `/health`: the process is up. `/ready`: NATS is connected and every service answers the NATS
 * micro PING; the answer lists each service's replicas, so an operator sees what serves.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  nc: NatsConnection,
  services: readonly string[],
): void {
  app.get('/health', { schema: { hide: true } }, async () => success('ok', { status: 'up' }));

  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const connected = !nc.isClosed() && !nc.isDraining();
    const found: Record<string, ServiceInstance[]> = {};
    if (connected) {
      const answers = await Promise.all(services.map((s) => pingService(nc, s)));
      services.forEach((s, i) => {
        found[s] = answers[i];
      });
    }
    const missing = services.filter((s) => !found[s]?.length);
    const data = { nats: connected ? 'connected' : 'disconnected', services: found };
    if (connected && missing.length === 0) return success('ready', data);
    const reason = connected ? `no replica answers for: ${missing.join(', ')}` : 'NATS is not connected';
    const body = failure(AppError.unavailable(reason));
    return reply.code(503).send({ ...body, data: { ...body.data, ...data } });
  });
}
