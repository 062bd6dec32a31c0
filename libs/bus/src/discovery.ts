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
