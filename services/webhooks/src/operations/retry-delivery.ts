import { handle } from '@coin/bus';
import { webhooks } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { WebhooksDeps } from '../deps.ts';
import { retryDelivery } from '../domain/deliveries.ts';

export function retryDeliveryHandler(deps: WebhooksDeps) {
  return handle(webhooks.retryDelivery, async ({ partnerId, params }) => {
    const delivery = await retryDelivery(deps.db.em, partnerId, params.id, deps.config.WEBHOOK_MAX_ATTEMPTS);
    if (!delivery) throw AppError.notFound('delivery not found');
    deps.dispatcher.notify();
    return delivery;
  });
}
