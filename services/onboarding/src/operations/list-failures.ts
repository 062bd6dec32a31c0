import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { OnboardingDeps } from '../deps.ts';

/** Internal: a page of a processed request's failures, for the webhook that lists them all. */
export function listFailuresHandler(deps: OnboardingDeps) {
  return handle(onboarding.listFailures, async ({ partnerId, body }) => {
    const em = deps.orm.em;
    const [request] = await em.execute<{ id: string }[]>(
      'SELECT id FROM onboarding_requests WHERE id = ? AND partner_id = ?',
      [body.requestId, partnerId],
    );
    if (!request) throw AppError.notFound('onboarding request not found');
    const rows = await em.execute<{ position: number; user_id: string; reason: string }[]>(
      `SELECT position, user_id, reason FROM onboarding_failures
        WHERE request_id = ? AND position > ? ORDER BY position LIMIT ?`,
      [body.requestId, body.after, body.limit + 1],
    );
    const page = rows.slice(0, body.limit);
    return {
      failed: page.map((r) => ({ user: r.user_id, reason: r.reason })),
      next: rows.length > body.limit ? page[page.length - 1].position : null,
    };
  });
}
