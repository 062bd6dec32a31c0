import { callOperation, type NatsConnection, onBroadcast } from '@coin/bus';
import { identity, partnerEndpointChanged, type webhooks } from '@coin/contracts';
import { LRUCache } from 'lru-cache';

export interface Endpoint {
  url: string | null;
  secret: string | null;
  /** The kinds the partner receives; null: every kind. */
  events: webhooks.EventKind[] | null;
}

/**
 * Events of this kind are recorded for the partner: it subscribes to the kind and has a webhook URL.
 * USER_ONBOARDING, the one webhook per onboarding request of docs/specification.md ("Events"), is recorded
 * without a URL too and waits for one, as it did before partners chose kinds: a partner that onboards first
 * and sets its URL later still learns each request's outcome.
 */
export function receives(endpoint: Endpoint, kind: webhooks.EventKind): boolean {
  const subscribed = endpoint.events === null || endpoint.events.includes(kind);
  return subscribed && (endpoint.url !== null || kind === 'USER_ONBOARDING');
}

export type PartnerEndpoints = ReturnType<typeof partnerEndpoints>;

/** Partners whose endpoint is kept at once; beyond it the least recently used is asked again. */
const MAX_PARTNERS = 10_000;

/**
 * The partner's webhook URL, secret and event kinds, asked of identity (their only owner) when an
 * event is recorded and at dispatch, and kept for a short while; no copy of the secret has to be
 * kept in step here. Lookups of one partner that miss together ask once. Identity's hint that a partner changed them drops the entry on every
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
      return { url: partner.webhookUrl, secret: partner.webhookSecret, events: partner.webhookEvents };
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
