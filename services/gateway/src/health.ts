import { type NatsConnection, pingService, type ServiceInstance } from '@coin/bus';
import { AppError, failure, success } from '@coin/errors';
import type { FastifyInstance } from 'fastify';

interface Readiness {
  ready: boolean;
  reason: string;
  data: { nats: string; services: Record<string, ServiceInstance[]> };
}

/** How long one NATS fan-out answers every /ready: probes and anyone else cannot multiply it. */
const READINESS_REUSE_MS = 1000;

/**
 * Readiness: NATS is connected and every service answers the NATS micro PING. One check is shared
 * by the /ready calls of the next second, on whichever port they arrive.
 */
export function readinessCheck(nc: NatsConnection, services: readonly string[]): () => Promise<Readiness> {
  let last: { at: number; result: Promise<Readiness> } | undefined;
  async function check(): Promise<Readiness> {
    const connected = !nc.isClosed() && !nc.isDraining();
    const found: Record<string, ServiceInstance[]> = {};
    if (connected) {
      const answers = await Promise.all(services.map((s) => pingService(nc, s)));
      services.forEach((s, i) => {
        found[s] = answers[i];
      });
    }
    const missing = services.filter((s) => !found[s]?.length);
    const reason = connected ? `no replica answers for: ${missing.join(', ')}` : 'NATS is not connected';
    return {
      ready: connected && missing.length === 0,
      reason,
      data: { nats: connected ? 'connected' : 'disconnected', services: found },
    };
  }
  return () => {
    if (!last || Date.now() - last.at > READINESS_REUSE_MS) last = { at: Date.now(), result: check() };
    return last.result;
  };
}

/**
 * `/health`: the process is up. `/ready`: see readinessCheck. `detailed` lists each service's
 * replicas and what is missing (the admin port, and the public one in development); otherwise the
 * answer says only ready or not, telling the internet nothing about the services behind.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  readiness: () => Promise<Readiness>,
  { detailed }: { detailed: boolean },
): void {
  app.get('/health', async () => success('ok', { status: 'up' }));

  app.get('/ready', async (_request, reply) => {
    const { ready, reason, data } = await readiness();
    if (ready) return detailed ? success('ready', data) : success('ready');
    if (!detailed) return reply.code(503).send(failure(AppError.unavailable('not ready')));
    const body = failure(AppError.unavailable(reason));
    return reply.code(503).send({ ...body, data: { ...body.data, ...data } });
  });
}
