import { boundPage, boundQuery, boundRow, type EntityManager, isoTime } from '@coin/db';
import { USER_COLUMNS, type UserRow } from '../processing/stored-user.ts';

interface RequestRow {
  id: string;
  status: 'pending' | 'done';
  user_count: number;
  next_index: number;
  failed_count: number;
  created_at: string;
  completed_at: string | null;
}

const REQUEST_COLUMNS = 'id, status, user_count, next_index, failed_count, created_at, completed_at';

function requestView(r: RequestRow) {
  return {
    id: r.id,
    status: r.status,
    usersCount: r.user_count,
    processedCount: r.next_index,
    failedCount: r.failed_count,
    createdAt: isoTime(r.created_at),
    completedAt: r.completed_at === null ? null : isoTime(r.completed_at),
  };
}

export type RequestView = ReturnType<typeof requestView>;

/** One of the partner's requests, or undefined (another partner's request is not found either). */
export async function findRequest(
  em: EntityManager,
  partnerId: string,
  id: string,
): Promise<RequestView | undefined> {
  const row = await boundRow<RequestRow>(
    em,
    `SELECT ${REQUEST_COLUMNS} FROM onboarding_requests WHERE id = $1 AND partner_id = $2`,
    [id, partnerId],
  );
  return row && requestView(row);
}

export async function requestPage(
  em: EntityManager,
  partnerId: string,
  page: { limit: number; offset: number },
) {
  const { rows, count } = await boundPage<RequestRow>(
    em,
    {
      columns: REQUEST_COLUMNS,
      from: 'onboarding_requests WHERE partner_id = $1',
      orderBy: 'created_at DESC, id',
    },
    [partnerId],
    page,
  );
  return { requests: rows.map(requestView), count };
}

/** A page of a request's failures in request order. */
export async function failurePage(
  em: EntityManager,
  requestId: string,
  page: { limit: number; offset: number },
) {
  const rows = await boundQuery<{ user_id: string; reason: string }>(
    em,
    `SELECT user_id, reason FROM onboarding_failures WHERE request_id = $1 ORDER BY position LIMIT $2 OFFSET $3`,
    [requestId, page.limit, page.offset],
  );
  return rows.map((r) => ({ user: r.user_id, reason: r.reason }));
}

/** LIKE's wildcards and escape, taken literally in what a partner searches for. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Matches the start of `userId`, the whole `userData.tag` or part of the `userData` name, all
 * case-insensitively ($2: the literal text, $3: it as a LIKE pattern's body).
 */
const SEARCH = `AND (user_id::text LIKE lower($3) || '%'
  OR lower(user_data->>'tag') = lower($2)
  OR coalesce(user_data->>'fullname', user_data->>'fullName', user_data->>'name') ILIKE '%' || $3 || '%')`;

export async function userPage(
  em: EntityManager,
  partnerId: string,
  page: { limit: number; offset: number },
  search?: string,
) {
  return boundPage<UserRow>(
    em,
    {
      columns: USER_COLUMNS,
      from: `users WHERE partner_id = $1 ${search ? SEARCH : ''}`,
      orderBy: 'created_at DESC, id',
    },
    search ? [partnerId, search, likeLiteral(search)] : [partnerId],
    page,
  );
}
