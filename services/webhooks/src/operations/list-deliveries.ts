import { handle } from '@coin/bus';
import { paginate, webhooks } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { deliveryViews } from '../delivery/view.ts';
import type { WebhooksDeps } from '../deps.ts';

export function listDeliveriesHandler(deps: WebhooksDeps) {
  return handle(webhooks.listDeliveries, async ({ partnerId, query }) => {
    if (!partnerId) throw AppError.unauthorized('a partner is required');
    const em = deps.orm.em;
    const where = query.status ? 'd.partner_id = ? AND d.status = ?' : 'd.partner_id = ?';
    const params = query.status ? [partnerId, query.status] : [partnerId];
    const [{ count }] = await em.execute<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM deliveries d WHERE ${where}`,
      params,
    );
    const data = await deliveryViews(
      em,
      where,
      [...params, query.limit, (query.page - 1) * query.limit],
      'ORDER BY d.created_at DESC, d.id LIMIT ? OFFSET ?',
    );
    return { data, ...paginate(count, query.page, query.limit) };
  });
}
