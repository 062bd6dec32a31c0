import type { wallet } from '@coin/contracts';
import { boundRow, type Database } from '@coin/db';
import { LRUCache } from 'lru-cache';

/**
 * How long a replica keeps a partner's default validity: a new default reaches the replica that
 * stored it at once, the others within this. Kept out of the batch function, whose every statement
 * every transfer pays (docs/decisions/2026-11-28-credit-lots-and-expiry.md).
 */
const CACHE_MS = 5_000;

type Found = { validity: wallet.PeriodValidity | null };

/** The partners' default validities (`wallet_treasuries.default_validity`), cached per replica. */
export function createDefaultValidities(db: Database) {
  const cache = new LRUCache<string, Found>({
    maxSize: 10_000,
    sizeCalculation: () => 1,
    ttl: CACHE_MS,
    fetchMethod: async (partnerId) => {
      const row = await boundRow<{ default_validity: wallet.PeriodValidity | null }>(
        db.em.fork(),
        'SELECT default_validity FROM wallet_treasuries WHERE partner_id = $1',
        [partnerId],
      );
      return { validity: row?.default_validity ?? null };
    },
  });
  return {
    async of(partnerId: string): Promise<wallet.PeriodValidity | null> {
      return (await cache.fetch(partnerId))?.validity ?? null;
    },
    forget(partnerId: string) {
      cache.delete(partnerId);
    },
  };
}

export type DefaultValidities = ReturnType<typeof createDefaultValidities>;
