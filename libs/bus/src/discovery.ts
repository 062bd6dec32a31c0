import type { NatsConnection } from '@nats-io/transport-node';
import { namesOf } from './namespace.ts';
import { decodeJson } from './wire.ts';

export interface ServiceInstance {
  name: string;
  id: string;
  version: string;
}

/** Every replica of a service that answers `$SRV.PING.<service>` within `maxWaitMs`. */
export async function pingService(
  nc: NatsConnection,
  service: string,
  maxWaitMs = 300,
): Promise<ServiceInstance[]> {
  const found: ServiceInstance[] = [];
  try {
    const replies = await nc.requestMany(`$SRV.PING.${namesOf(nc).micro(service)}`, undefined, {
      strategy: 'timer',
      maxWait: maxWaitMs,
    });
    for await (const msg of replies) {
      if (msg.data.length === 0) continue;
      const r = decodeJson(msg.data) as ServiceInstance;
      found.push({ name: r.name, id: r.id, version: r.version });
    }
  } catch {
    return found;
  }
  return found;
}

/**
 * Waits until at least `replicas` replicas of `service` answer PING; false if they do not within
 * `timeoutMs`. Rounds start at most every `intervalMs`: while nothing serves the subject the server
 * answers "no responders" at once, and asking again at once kept a core busy beside the services
 * that were starting (docs/decisions/2026-11-25-ping-once-per-interval.md).
 */
export async function awaitReplicas(
  nc: NatsConnection,
  service: string,
  {
    replicas = 1,
    timeoutMs,
    intervalMs = 200,
  }: { replicas?: number; timeoutMs: number; intervalMs?: number },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const round = Date.now();
    if ((await pingService(nc, service, intervalMs)).length >= replicas) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, Math.max(0, round + intervalMs - Date.now())));
  }
}
