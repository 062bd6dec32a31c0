import { callOperation } from '@coin/bus';
import { type leaderboard, onboarding } from '@coin/contracts';
import { boundQuery, type EntityManager, isoTime } from '@coin/db';
import type { z } from 'zod';
import type { LeaderboardDeps } from '../deps.ts';

/**
 * The points board shows each user as onboarding stored them. They are a projection of
 * onboarding's usersOnboarded events (so a page is one query here, and the board keeps working
 * while onboarding is down); a user whose event has not arrived yet is asked of onboarding once
 * (`onboarding.getUser`) and kept.
 */
export type BoardUser = z.infer<typeof leaderboard.leaderboardUserSchema>;

type StoredUser = onboarding.StoredUser;

/** Stores users (one statement per batch); a newer copy of a user replaces an older one. */
export async function saveUsers(
  em: EntityManager,
  partnerId: string,
  users: readonly StoredUser[],
): Promise<void> {
  if (users.length === 0) return;
  await boundQuery(
    em,
    `INSERT INTO users (partner_id, user_id, id, user_data, created_at, updated_at)
     SELECT $1::uuid, x."userId", x.id, x."userData", x."createdAt", x."updatedAt"
       FROM jsonb_to_recordset($2::jsonb)
         AS x(id uuid, "userId" uuid, "userData" jsonb, "createdAt" timestamptz, "updatedAt" timestamptz)
     ON CONFLICT (partner_id, user_id) DO UPDATE SET
       id = EXCLUDED.id, user_data = EXCLUDED.user_data, updated_at = EXCLUDED.updated_at
       WHERE users.updated_at <= EXCLUDED.updated_at`,
    [partnerId, JSON.stringify(users)],
  );
}

async function askOnboarding(
  deps: LeaderboardDeps,
  partnerId: string,
  userId: string,
): Promise<StoredUser | null> {
  try {
    return await callOperation(
      deps.nc,
      onboarding.getUser,
      { partnerId, body: { userId } },
      { timeoutMs: deps.config.REQUEST_TIMEOUT_MS },
    );
  } catch (err) {
    deps.log.warn({ err, partnerId, userId }, 'stored user not available from onboarding');
    return null;
  }
}

/** The stored users of these ids, by userId; a user neither projected nor known to onboarding is absent. */
export async function usersOf(
  deps: LeaderboardDeps,
  em: EntityManager,
  partnerId: string,
  userIds: readonly string[],
): Promise<Map<string, BoardUser>> {
  const found = new Map<string, BoardUser>();
  if (userIds.length === 0) return found;
  const rows = await boundQuery<BoardUser>(
    em,
    `SELECT id, user_id AS "userId", user_data AS "userData", created_at AS "createdAt", updated_at AS "updatedAt"
       FROM users WHERE partner_id = $1 AND user_id = ANY($2::uuid[])`,
    [partnerId, [...userIds]],
  );
  for (const row of rows)
    found.set(row.userId, { ...row, createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt) });
  const missing = userIds.filter((id) => !found.has(id));
  const fetched = (await Promise.all(missing.map((id) => askOnboarding(deps, partnerId, id)))).filter(
    (u): u is StoredUser => u !== null,
  );
  await saveUsers(em, partnerId, fetched);
  for (const u of fetched)
    found.set(u.userId, {
      id: u.id,
      userId: u.userId,
      userData: u.userData,
      createdAt: u.createdAt,
      updatedAt: u.updatedAt,
    });
  return found;
}
