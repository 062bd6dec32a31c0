import { connectBus, serveOperations } from '@coin/bus';
import { openDatabase, requestScope } from '@coin/db';
import { createLogger, type Stoppable } from '@coin/telemetry';
import { webhooksConfig } from './config.ts';
import { startDispatcher } from './delivery/dispatcher.ts';
import { watchDeliveries } from './delivery/metrics.ts';
import { consumeOnboardingEvents } from './delivery/onboarding-consumer.ts';
import type { WebhooksDeps } from './deps.ts';
import { webhooksEntities } from './entities.ts';
import { webhooksMigrations } from './migrations/index.ts';
import { listDeliveriesHandler } from './operations/list-deliveries.ts';
import { retryDeliveryHandler } from './operations/retry-delivery.ts';

export async function startWebhooks(env: NodeJS.ProcessEnv = process.env): Promise<Stoppable> {
  const config = webhooksConfig(env);
  const log = createLogger('webhooks', config.LOG_LEVEL);
  const orm = await openDatabase({
    url: config.databaseUrl,
    entities: webhooksEntities,
    migrations: webhooksMigrations,
    log,
  });
  const nc = await connectBus(config.NATS_URL, 'webhooks');
  const dispatcher = startDispatcher({ orm, nc, log, config });
  const unwatch = watchDeliveries(orm);
  const consumer = await consumeOnboardingEvents({
    orm,
    nc,
    log,
    config,
    onStored: () => dispatcher.notify(),
  });
  const deps: WebhooksDeps = { orm, config, dispatcher };
  const service = serveOperations(nc, {
    service: 'webhooks',
    version: '1.0.0',
    description: 'signed, retried webhook deliveries to partners',
    log,
    around: requestScope(orm),
    metricsPort: config.METRICS_PORT,
    handlers: [listDeliveriesHandler(deps), retryDeliveryHandler(deps)],
  });
  log.info({ id: service.id }, 'webhooks started');
  return {
    async stop() {
      await service.stop();
      unwatch();
      await consumer.stop();
      await dispatcher.stop();
      await nc.drain();
      await orm.close();
    },
  };
}
