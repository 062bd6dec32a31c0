import { allowSlowStatements, boundQuery, boundRow, type EntityManager } from '@coin/db';
import type { BoardRef } from './boards.ts';

/** A user's amount on a board and when it reached that amount (epoch ms). */
export interface Standing {
  userId: string;
  amount: string;
  reachedMs: number;
}

interface StandingRow {
  user_id: string;
  amount: string;
  reached_ms: string;
}

function toStanding(row: StandingRow): Standing {
  return { userId: row.user_id, amount: row.amount, reachedMs: Number(row.reached_ms) };
}

const STANDING_COLUMNS =
  'user_id, amount::text AS amount, (extract(epoch FROM reached_at) * 1000)::bigint::text AS reached_ms';

/** A rebuild reads a whole board (or every board's key) in one statement: longer than a request may. */
const REBUILD_STATEMENT_TIMEOUT_MS = 120_000;

/** The ranking order; the Redis index (ranking.ts) orders the same way. */
// Qualified: an output column named `amount` (text) would otherwise be what ORDER BY sorts.
const RANK_ORDER = 's.amount DESC, s.reached_at ASC, s.user_id ASC';

/** A change to one user's standing on one board, at the time of its event. */
export interface StandingChange {
  ref: BoardRef;
  userId: string;
  amount: string;
  at: string;
}

/** A standing with the board it is on. */
export type BoardStanding = Standing & { ref: BoardRef };

/**
 * Adds each change's amount to its user's standing, inside the caller's transaction, in one
 * statement. Changes to one standing are summed first (a statement may not touch a row twice), and
 * the rows are written in key order, so two batches touching the same users lock them in the same
 * order and cannot deadlock. The reach time moves only when the amount grows: it is when the user
 * reached the current amount (the latest time among the growing changes). Returns the resulting
 * standings.
 */
export async function addToStandings(
  tx: EntityManager,
  changes: readonly StandingChange[],
): Promise<BoardStanding[]> {
  if (changes.length === 0) return [];
  const rows = await boundQuery<StandingRow & { partner_id: string; board: string }>(
    tx,
    `INSERT INTO standings AS s (partner_id, board, user_id, amount, reached_at, created_at, updated_at)
     SELECT partner_id, board, user_id, sum(amount),
            date_trunc('milliseconds', coalesce(max(at) FILTER (WHERE amount > 0), min(at))), min(at), max(at)
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::numeric[], $5::timestamptz[])
         AS c(partner_id, board, user_id, amount, at)
      GROUP BY partner_id, board, user_id
      ORDER BY partner_id, board, user_id
     ON CONFLICT (partner_id, board, user_id) DO UPDATE SET
       amount = s.amount + EXCLUDED.amount,
       reached_at = CASE WHEN EXCLUDED.amount > 0 THEN greatest(s.reached_at, EXCLUDED.reached_at)
                         ELSE s.reached_at END,
       created_at = least(s.created_at, EXCLUDED.created_at),
       updated_at = greatest(s.updated_at, EXCLUDED.updated_at)
     RETURNING partner_id, board, ${STANDING_COLUMNS}`,
    [
      changes.map((c) => c.ref.partnerId),
      changes.map((c) => c.ref.board),
      changes.map((c) => c.userId),
      changes.map((c) => c.amount),
      changes.map((c) => c.at),
    ],
  );
  return rows.map((r) => ({ ...toStanding(r), ref: { partnerId: r.partner_id, board: r.board } }));
}

export async function standingsOf(
  em: EntityManager,
  ref: BoardRef,
  userIds: readonly string[],
): Promise<Standing[]> {
  const rows = await boundQuery<StandingRow>(
    em,
    `SELECT ${STANDING_COLUMNS} FROM standings WHERE partner_id = $1 AND board = $2 AND user_id = ANY($3::uuid[])`,
    [ref.partnerId, ref.board, userIds],
  );
  return rows.map(toStanding);
}

export async function findStanding(
  em: EntityManager,
  ref: BoardRef,
  userId: string,
): Promise<Standing | null> {
  return (await standingsOf(em, ref, [userId]))[0] ?? null;
}

export async function countStandings(em: EntityManager, ref: BoardRef): Promise<number> {
  const [row] = await boundQuery<{ n: number }>(
    em,
    'SELECT count(*)::int AS n FROM standings WHERE partner_id = $1 AND board = $2 AND amount > 0',
    [ref.partnerId, ref.board],
  );
  return row.n;
}

export async function standingsPage(
  em: EntityManager,
  ref: BoardRef,
  offset: number,
  limit: number,
): Promise<Standing[]> {
  const rows = await boundQuery<StandingRow>(
    em,
    `SELECT ${STANDING_COLUMNS} FROM standings s WHERE partner_id = $1 AND board = $2 AND amount > 0
      ORDER BY ${RANK_ORDER} LIMIT $3 OFFSET $4`,
    [ref.partnerId, ref.board, limit, offset],
  );
  return rows.map(toStanding);
}

/** The user's 1-based rank and amount, or null when the user has nothing on this board. */
export async function positionOf(
  em: EntityManager,
  ref: BoardRef,
  userId: string,
): Promise<{ amount: string; position: number } | null> {
  const row = await boundRow<{ amount: string; position: number }>(
    em,
    `SELECT t.amount::text AS amount,
            (SELECT count(*) FROM standings o
              WHERE o.partner_id = t.partner_id AND o.board = t.board
                AND (o.amount > t.amount
                  OR (o.amount = t.amount AND (o.reached_at < t.reached_at
                    OR (o.reached_at = t.reached_at AND o.user_id < t.user_id)))))::int + 1 AS position
       FROM standings t WHERE t.partner_id = $1 AND t.board = $2 AND t.user_id = $3 AND t.amount > 0`,
    [ref.partnerId, ref.board, userId],
  );
  return row ?? null;
}

/** Every standing of a board, read in one statement so that it is one consistent snapshot. */
export async function allStandings(em: EntityManager, ref: BoardRef): Promise<Standing[]> {
  return em.transactional(async (tx) => {
    await allowSlowStatements(tx, REBUILD_STATEMENT_TIMEOUT_MS);
    const rows = await boundQuery<StandingRow>(
      tx,
      `SELECT ${STANDING_COLUMNS} FROM standings WHERE partner_id = $1 AND board = $2 AND amount > 0`,
      [ref.partnerId, ref.board],
    );
    return rows.map(toStanding);
  });
}

/** Every board that has at least one standing. */
export async function listBoards(em: EntityManager): Promise<BoardRef[]> {
  return em.transactional(async (tx) => {
    await allowSlowStatements(tx, REBUILD_STATEMENT_TIMEOUT_MS);
    const rows = await boundQuery<{ partner_id: string; board: string }>(
      tx,
      'SELECT DISTINCT partner_id, board FROM standings',
      [],
    );
    return rows.map((r) => ({ partnerId: r.partner_id, board: r.board }));
  });
}

/** The points entries' own fields (id and timestamps) of these users, by userId. */
export async function pointsEntries(
  em: EntityManager,
  ref: BoardRef,
  userIds: readonly string[],
): Promise<Map<string, { id: string; createdAt: string; updatedAt: string }>> {
  if (userIds.length === 0) return new Map();
  const rows = await boundQuery<{ user_id: string; id: string; created_at: string; updated_at: string }>(
    em,
    'SELECT user_id, id, created_at, updated_at FROM standings WHERE partner_id = $1 AND board = $2 AND user_id = ANY($3::uuid[])',
    [ref.partnerId, ref.board, [...userIds]],
  );
  return new Map(
    rows.map((r) => [
      r.user_id,
      {
        id: r.id,
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
      },
    ]),
  );
}
