import { randomUUID } from 'node:crypto';
import type { onboarding } from '@coin/contracts';
import { boundPage, type EntityManager, insertUnique, isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { z } from 'zod';

type Tier = z.infer<typeof onboarding.tierSchema>;

interface TierRow {
  id: string;
  name: string;
  rank: number;
  minCoins: number | null;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS =
  'id, name, rank, min_coins::float8 AS "minCoins", created_at AS "createdAt", updated_at AS "updatedAt"';

const tierView = (r: TierRow): Tier => ({
  id: r.id,
  name: r.name,
  rank: r.rank,
  ...(r.minCoins !== null && { minCoins: r.minCoins }),
  createdAt: isoTime(r.createdAt),
  updatedAt: isoTime(r.updatedAt),
});

/** Names are unique per partner ignoring case (the index `tiers_partner_name` decides). */
export async function createTier(
  em: EntityManager,
  partnerId: string,
  tier: { name: string; rank: number; minCoins?: number },
): Promise<Tier> {
  const row = await insertUnique<TierRow>(
    em,
    `INSERT INTO tiers (id, partner_id, name, rank, min_coins) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [randomUUID(), partnerId, tier.name, tier.rank, tier.minCoins ?? null],
    () => AppError.conflict('a tier with this name already exists'),
  );
  return tierView(row);
}

/** A page of the partner's tiers by rank, and how many there are. */
export async function tiersPage(
  em: EntityManager,
  partnerId: string,
  page: { limit: number; offset: number },
): Promise<{ tiers: Tier[]; count: number }> {
  const { rows, count } = await boundPage<TierRow>(
    em,
    { columns: COLUMNS, from: 'tiers WHERE partner_id = $1', orderBy: 'rank, created_at' },
    [partnerId],
    page,
  );
  return { tiers: rows.map(tierView), count };
}
