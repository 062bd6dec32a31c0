import { handle } from '@coin/bus';
import { paginate, webhooks } from '@coin/contracts';
import type { WebhooksDeps } from '../deps.ts';
import { deliveriesPage } from '../domain/deliveries.ts';

export function listDeliveriesHandler(deps: WebhooksDeps) {
  return handle(webhooks.listDeliveries, async ({ partnerId, query }) => {
    const { deliveries, count } = await deliveriesPage(deps.db.em, partnerId, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
      status: query.status,
    });
    return { data: deliveries, ...paginate(count, query.page, query.limit) };
  });
}
