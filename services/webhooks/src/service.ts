import { startAppliedEventsRetention } from '@coin/events';
import { startService } from '@coin/startup';
import { webhooksConfig } from './config.ts';
import { starterOf } from './consumers/event-consumer.ts';
import { eventSources } from './consumers/event-sources.ts';
import { onboardingSource } from './consumers/onboarding-consumer.ts';
import type { WebhooksDeps } from './deps.ts';
import { startDispatcher } from './domain/dispatcher.ts';
import { watchDeliveries } from './domain/metrics.ts';
import { partnerEndpoints } from './domain/partner-endpoints.ts';
import { webhooksMigrations } from './migrations/index.ts';
import { listDeliveriesHandler } from './operations/list-deliveries.ts';
import { listEventKindsHandler } from './operations/list-event-kinds.ts';
import { retryDeliveryHandler } from './operations/retry-delivery.ts';

export async function startWebhooks(env: NodeJS.ProcessEnv = process.env) {
  return startService(webhooksConfig(env), {
    description: 'signed, retried webhook deliveries to partners',
    async start({ config, db, nc, log, background }) {
      const endpoints = background(
        partnerEndpoints(nc, config.WEBHOOK_PARTNER_CACHE_MS, config.REQUEST_TIMEOUT_MS),
        'partner endpoints',
      );
      const dispatcher = background(startDispatcher({ db, log, config, endpoints }), 'dispatcher');
      background({ stop: watchDeliveries(db) }, 'delivery metrics');
      const consumerDeps = { db, nc, log, endpoints, onStored: () => dispatcher.notify() };
      const sources = [starterOf(onboardingSource(nc, config.REQUEST_TIMEOUT_MS)), ...eventSources];
      for (const source of sources)
        background(await source.start(consumerDeps), `${source.durable} consumer`);
      background(startAppliedEventsRetention({ db, log, service: config.service }), 'applied ids purge');
      const deps: WebhooksDeps = { db, config, dispatcher };
      return [listDeliveriesHandler(deps), retryDeliveryHandler(deps), listEventKindsHandler()];
    },
    database: { migrations: webhooksMigrations },
  });
}
