import { randomUUID } from 'node:crypto';
import type { onboarding } from '@coin/contracts';
import { boundQuery, type EntityManager, isoTime, violatedUniqueConstraint } from '@coin/db';
import { AppError } from '@coin/errors';
import type { z } from 'zod';

type Tier = z.infer<typeof onboarding.tierSchema>;

interface TierRow {
  id: string;
  name: string;
  rank: number;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = 'id, name, rank, created_at AS "createdAt", updated_at AS "updatedAt"';

const tierView = (r: TierRow): Tier => ({
  id: r.id,
  name: r.name,
  rank: r.rank,
  createdAt: isoTime(r.createdAt),
  updatedAt: isoTime(r.updatedAt),
});

/** Names are unique per partner ignoring case (the index `tiers_partner_name` decides). */
export async function createTier(
  em: EntityManager,
  partnerId: string,
  tier: { name: string; rank: number },
): Promise<Tier> {
  try {
    const [row] = await boundQuery<TierRow>(
      em,
      `INSERT INTO tiers (id, partner_id, name, rank) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [randomUUID(), partnerId, tier.name, tier.rank],
    );
    return tierView(row);
  } catch (err) {
    if (violatedUniqueConstraint(err)) throw AppError.conflict('a tier with this name already exists');
    throw err;
  }
}

/** A page of the partner's tiers by rank, and how many there are. */
export async function tiersPage(
  em: EntityManager,
  partnerId: string,
  page: { limit: number; offset: number },
): Promise<{ tiers: Tier[]; count: number }> {
  const [rows, [total]] = await Promise.all([
    boundQuery<TierRow>(
      em,
      `SELECT ${COLUMNS} FROM tiers WHERE partner_id = $1 ORDER BY rank, created_at LIMIT $2 OFFSET $3`,
      [partnerId, page.limit, page.offset],
    ),
    boundQuery<{ count: number }>(em, 'SELECT count(*)::int AS count FROM tiers WHERE partner_id = $1', [
      partnerId,
    ]),
  ]);
  return { tiers: rows.map(tierView), count: total.count };
}
