import { callOperation, type NatsConnection } from '@coin/bus';
import { identity } from '@coin/contracts';

export interface Endpoint {
  url: string | null;
  secret: string | null;
}

/**
 * The partner's webhook URL and secret, asked of identity (their only owner) at dispatch and kept
 * for a short while: a new URL or a rotated secret applies within `cacheMs`, and no copy of the
 * secret has to be kept in step here.
 */
export function partnerEndpoints(nc: NatsConnection, cacheMs: number, timeoutMs: number) {
  const cache = new Map<string, { endpoint: Endpoint; until: number }>();
  return async function endpointOf(partnerId: string): Promise<Endpoint> {
    const hit = cache.get(partnerId);
    if (hit && hit.until > Date.now()) return hit.endpoint;
    const partner = await callOperation(nc, identity.getPartner, { partnerId, body: {} }, { timeoutMs });
    const endpoint = { url: partner.webhookUrl, secret: partner.webhookSecret };
    if (cacheMs > 0) cache.set(partnerId, { endpoint, until: Date.now() + cacheMs });
    return endpoint;
  };
}
