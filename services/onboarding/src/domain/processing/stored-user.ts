import type { onboarding } from '@coin/contracts';

type StoredUser = onboarding.StoredUser;

export interface UserRow {
  id: string;
  user_id: string;
  user_data: Record<string, unknown> | null;
  tier_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const USER_COLUMNS = 'id, user_id, user_data, tier_id, created_at, updated_at';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function storedUser(row: UserRow): StoredUser {
  return {
    id: row.id,
    userId: row.user_id,
    userData: row.user_data,
    tierId: row.tier_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
