import { callOperation, type NatsConnection } from '@coin/bus';
import { identity } from '@coin/contracts';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';

/** At most one JWKS fetch per second per gateway, however many tokens name an unknown key. */
const MIN_REFRESH_MS = 1000;
/** A key identity stopped publishing (its overlap ended) is dropped within this time. */
const MAX_AGE_MS = 60_000;

type KeySet = ReturnType<typeof createLocalJWKSet>;

interface Fetched {
  jwks: JSONWebKeySet;
  keySet: KeySet;
  kids: Set<string>;
  at: number;
}

export interface VerificationKeys {
  /** The keys to verify a token of key id `kid` with, or undefined when identity does not publish it. */
  forKid(kid: string, requestId: string): Promise<KeySet | undefined>;
  /** What identity publishes now: the active key and the keys still in their overlap. */
  published(requestId: string): Promise<JSONWebKeySet>;
}

/**
 * Identity's public signing keys, fetched over NATS and kept in memory. A token naming a key id
 * not seen yet (a rotation) triggers one shared refresh, rate-limited, so forged key ids cannot
 * turn into a flood of fetches; a set older than a minute is refreshed in the background.
 */
export function verificationKeys(opts: { nc: NatsConnection; timeoutMs: number }): VerificationKeys {
  let fetched: Fetched | undefined;
  let inFlight: Promise<Fetched> | undefined;
  let lastStart = 0;

  function refresh(requestId: string): Promise<Fetched> {
    inFlight ??= (async () => {
      const wait = lastStart + MIN_REFRESH_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastStart = Date.now();
      const jwks = (await callOperation(
        opts.nc,
        identity.getJwks,
        { body: {} },
        { timeoutMs: opts.timeoutMs, requestId },
      )) as JSONWebKeySet;
      fetched = {
        jwks,
        keySet: createLocalJWKSet(jwks),
        kids: new Set(jwks.keys.map((k) => k.kid).filter((k): k is string => typeof k === 'string')),
        at: Date.now(),
      };
      return fetched;
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  async function current(requestId: string): Promise<Fetched> {
    if (!fetched) return refresh(requestId);
    // The set in hand serves meanwhile; a failed refresh is tried again on a later request.
    if (Date.now() - fetched.at > MAX_AGE_MS) refresh(requestId).catch(() => undefined);
    return fetched;
  }

  return {
    async forKid(kid, requestId) {
      let keys = await current(requestId);
      if (!keys.kids.has(kid)) keys = await refresh(requestId);
      return keys.kids.has(kid) ? keys.keySet : undefined;
    },
    published: async (requestId) => (await current(requestId)).jwks,
  };
}
