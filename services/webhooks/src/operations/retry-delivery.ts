import { handle } from '@coin/bus';
import { webhooks } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { deliveryViews } from '../delivery/view.ts';
import type { WebhooksDeps } from '../deps.ts';

/**
 * One more attempt now. A finished delivery gets exactly one; a pending one is just brought
 * forward. The partner asking is taken as "my endpoint is fixed": a 410-disabled endpoint is
 * enabled again.
 */
export function retryDeliveryHandler(deps: WebhooksDeps) {
  return handle(webhooks.retryDelivery, async ({ partnerId, params }) => {
    if (!partnerId) throw AppError.unauthorized('a partner is required');
    const em = deps.orm.em;
    const found = await em.transactional(async (tx) => {
      const rows = await tx.execute<{ id: string }[]>(
        `UPDATE deliveries
            SET max_attempts = CASE WHEN status = 'pending' THEN max_attempts ELSE attempts + 1 END,
                status = 'pending', next_attempt_at = now(), updated_at = now()
          WHERE id = ? AND partner_id = ? RETURNING id`,
        [params.id, partnerId],
      );
      if (rows.length) await tx.execute('DELETE FROM disabled_endpoints WHERE partner_id = ?', [partnerId]);
      return rows.length > 0;
    });
    if (!found) throw AppError.notFound('delivery not found');
    deps.dispatcher.notify();
    const [view] = await deliveryViews(em, 'd.id = ?', [params.id]);
    return view;
  });
}
