import { startService } from '@coin/startup';
import { webhooksConfig } from './config.ts';
import { startDispatcher } from './delivery/dispatcher.ts';
import { watchDeliveries } from './delivery/metrics.ts';
import { consumeOnboardingEvents } from './delivery/onboarding-consumer.ts';
import type { WebhooksDeps } from './deps.ts';
import { webhooksMigrations } from './migrations/index.ts';
import { listDeliveriesHandler } from './operations/list-deliveries.ts';
import { retryDeliveryHandler } from './operations/retry-delivery.ts';

export async function startWebhooks(env: NodeJS.ProcessEnv = process.env) {
  return startService(webhooksConfig(env), {
    description: 'signed, retried webhook deliveries to partners',
    async start({ config, orm, nc, log, background }) {
      const dispatcher = background(startDispatcher({ orm, nc, log, config }), 'dispatcher');
      background({ stop: watchDeliveries(orm) }, 'delivery metrics');
      background(
        await consumeOnboardingEvents({ orm, nc, log, config, onStored: () => dispatcher.notify() }),
        'onboarding consumer',
      );
      const deps: WebhooksDeps = { orm, config, dispatcher };
      return [listDeliveriesHandler(deps), retryDeliveryHandler(deps)];
    },
    database: { migrations: webhooksMigrations },
  });
}
