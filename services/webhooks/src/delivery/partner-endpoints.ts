import { callOperation, type NatsConnection, onBroadcast } from '@coin/bus';
import { identity, partnerEndpointChanged } from '@coin/contracts';
import { LRUCache } from 'lru-cache';

export interface Endpoint {
  url: string | null;
  secret: string | null;
}

/** Partners whose endpoint is kept at once; beyond it the least recently used is asked again. */
const MAX_PARTNERS = 10_000;

/**
 * The partner's webhook URL and secret, asked of identity (their only owner) at dispatch and kept
 * for a short while; no copy of the secret has to be kept in step here. Deliveries to one partner
 * that miss together ask once. Identity's hint that a partner changed them drops the entry on every
 * replica at once, so the next attempt (a retry right after fixing a URL) uses the new ones; a hint
 * missed while disconnected still expires with `cacheMs`.
 */
export function partnerEndpoints(nc: NatsConnection, cacheMs: number, timeoutMs: number) {
  const cache = new LRUCache<string, Endpoint>({
    max: MAX_PARTNERS,
    // lru-cache reads a ttl of 0 as "for ever"; a cache time of 0 keeps an answer for 1 ms.
    ttl: Math.max(cacheMs, 1),
    fetchMethod: async (partnerId) => {
      const partner = await callOperation(nc, identity.getPartner, { partnerId, body: {} }, { timeoutMs });
      return { url: partner.webhookUrl, secret: partner.webhookSecret };
    },
  });
  const hints = onBroadcast(
    nc,
    partnerEndpointChanged.subject,
    partnerEndpointChanged.schema,
    ({ partnerId }) => cache.delete(partnerId),
  );
  return {
    async endpointOf(partnerId: string): Promise<Endpoint> {
      return (await cache.fetch(partnerId))!;
    },
    stop: () => hints.stop(),
  };
}
