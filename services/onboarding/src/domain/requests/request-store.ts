import { boundQuery, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';

/** Stores a whole onboard-users request as one row: a job of the `onboarding` queue, due at once. */
export async function storeRequest(
  em: EntityManager,
  request: { id: string; partnerId: string; users: readonly unknown[] },
): Promise<void> {
  await boundQuery(
    em,
    `INSERT INTO onboarding_requests (id, partner_id, users, user_count, next_attempt_at)
     VALUES ($1, $2, $3, $4, now())`,
    [request.id, request.partnerId, JSON.stringify(request.users), request.users.length],
  );
}

/** A page of the partner's request's failures after `after` (a position), in request order. */
export async function failuresPage(
  em: EntityManager,
  partnerId: string,
  page: { requestId: string; after: number; limit: number },
): Promise<{ failed: { user: string; reason: string }[]; next: number | null }> {
  const [request] = await boundQuery<{ id: string }>(
    em,
    'SELECT id FROM onboarding_requests WHERE id = $1 AND partner_id = $2',
    [page.requestId, partnerId],
  );
  if (!request) throw AppError.notFound('onboarding request not found');
  const rows = await boundQuery<{ position: number; user_id: string; reason: string }>(
    em,
    `SELECT position, user_id, reason FROM onboarding_failures
      WHERE request_id = $1 AND position > $2 ORDER BY position LIMIT $3`,
    [page.requestId, page.after, page.limit + 1],
  );
  const taken = rows.slice(0, page.limit);
  return {
    failed: taken.map((r) => ({ user: r.user_id, reason: r.reason })),
    next: rows.length > page.limit ? taken[taken.length - 1].position : null,
  };
}
