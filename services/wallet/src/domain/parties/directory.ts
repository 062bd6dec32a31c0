import { callOperation, type NatsConnection } from '@coin/bus';
import { identity, onboarding, type ResponseOf, type wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { OutboundClient } from '@coin/outbound';
import type { Logger } from '@coin/telemetry';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';

export type Party = z.infer<typeof wallet.partySchema>;
export type StoredUser = ResponseOf<typeof onboarding.getUser>;
export type PartnerInfo = ResponseOf<typeof identity.getPartnerProfile>;

interface UserDetails {
  fullname?: string;
  email?: string;
  tag?: string;
}

export interface DirectoryOptions {
  nc: NatsConnection;
  outbound: OutboundClient;
  log: Logger;
  timeoutMs: number;
  partnerCacheMs: number;
  userDetailsCacheMs: number;
}

/** Users are never deleted, so a user once found stays valid for as long as it is cached. */
const USER_CACHE_MS = 10 * 60_000;
/** A partner URL that failed is not asked again for a while, so it slows at most one transfer. */
const USER_DETAILS_FAILURE_CACHE_MS = 30_000;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/**
 * A bounded cache whose `fetch(key, { context: load })` runs `load` once however many callers miss
 * the key at the same time (a burst of transfers to a new user asks the owning service once), and
 * keeps the answer for `ttlOf(answer)`. lru-cache reads a ttl of 0 as "for ever": a cache time of 0
 * keeps an answer for 1 ms instead. Bounded by `maxSize` counting 1 per entry rather than by `max`,
 * which allocates its arrays for every entry at once, full or not
 * (docs/decisions/2026-11-24-lru-caches-bounded-by-size.md).
 */
function loadingCache<V extends {}>(max: number, ttlOf: (value: V) => number) {
  return new LRUCache<string, V, () => Promise<V>>({
    maxSize: max,
    sizeCalculation: () => 1,
    fetchMethod: async (_key, _stale, { context, options }) => {
      const value = await context();
      options.ttl = Math.max(ttlOf(value), 1);
      return value;
    },
  });
}

/**
 * Who the parties of a transfer are: the user (onboarding's stored user, named from its userData
 * or the partner's userDetailsUrl) and the partner (identity). Every answer is cached.
 */
export function createDirectory(opts: DirectoryOptions) {
  const users = loadingCache<StoredUser>(100_000, () => USER_CACHE_MS);
  const partners = loadingCache<PartnerInfo>(10_000, () => opts.partnerCacheMs);
  const details = loadingCache<{ found: UserDetails | null }>(100_000, ({ found }) =>
    found ? opts.userDetailsCacheMs : USER_DETAILS_FAILURE_CACHE_MS,
  );

  async function loadUser(partnerId: string, userId: string): Promise<StoredUser> {
    try {
      return await callOperation(
        opts.nc,
        onboarding.getUser,
        { partnerId, body: { userId } },
        { timeoutMs: opts.timeoutMs },
      );
    } catch (err) {
      if (err instanceof AppError && err.status === 404) throw AppError.notFound('user not found');
      throw err;
    }
  }

  async function user(partnerId: string, userId: string): Promise<StoredUser> {
    const found = await users.fetch(`${partnerId}/${userId}`, { context: () => loadUser(partnerId, userId) });
    return found!;
  }

  async function partner(partnerId: string): Promise<PartnerInfo> {
    const found = await partners.fetch(partnerId, {
      context: () =>
        callOperation(
          opts.nc,
          identity.getPartnerProfile,
          { partnerId, body: {} },
          { timeoutMs: opts.timeoutMs },
        ),
    });
    return found!;
  }

  /** The partner's user-details answer for `tag`, or null when it is slow, failing or malformed. */
  async function fetchDetails(url: string, tag: string): Promise<UserDetails | null> {
    const target = new URL(url);
    target.searchParams.set('tag', tag);
    try {
      const res = await opts.outbound.send(target.toString(), { headers: { accept: 'application/json' } });
      if (res.status < 200 || res.status >= 300) throw new Error(`status ${res.status}`);
      const body = JSON.parse(res.body) as { data?: unknown };
      const data = (body && typeof body === 'object' && 'data' in body ? body.data : body) as Record<
        string,
        unknown
      >;
      if (!data || typeof data !== 'object') throw new Error('no data object');
      return { fullname: text(data.fullname), email: text(data.email), tag: text(data.tag) };
    } catch (err) {
      opts.log.warn({ err, url: target.origin + target.pathname }, 'user details unavailable');
      return null;
    }
  }

  async function userParty(p: PartnerInfo, u: StoredUser): Promise<Party> {
    const data = u.userData ?? {};
    const tag = text(data.tag);
    let found: UserDetails | null = null;
    if (tag && p.userDetailsUrl) {
      const cached = await details.fetch(`${p.partnerId}/${tag}`, {
        context: async () => ({ found: await fetchDetails(p.userDetailsUrl, tag) }),
      });
      found = cached!.found;
    }
    return {
      id: u.id,
      fullname_businessName:
        found?.fullname ?? text(data.fullname) ?? text(data.fullName) ?? text(data.name) ?? '',
      email: found?.email ?? text(data.email) ?? '',
      tag: found?.tag ?? tag ?? null,
      userId: u.userId,
    };
  }

  function partnerParty(p: PartnerInfo): Party {
    return {
      id: p.partnerId,
      fullname_businessName: p.partnerName,
      email: p.email,
      tag: null,
      userId: p.partnerId,
    };
  }

  return { user, partner, userParty, partnerParty };
}

export type Directory = ReturnType<typeof createDirectory>;
