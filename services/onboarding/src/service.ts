import { connectBus, serveOperations } from '@coin/bus';
import { openDatabase, requestScope } from '@coin/db';
import { ensureEventsStream, startOutboxRelay } from '@coin/events';
import { createLogger, type Stoppable } from '@coin/telemetry';
import { onboardingConfig } from './config.ts';
import type { OnboardingDeps } from './deps.ts';
import { onboardingEntities } from './entities.ts';
import { onboardingMigrations } from './migrations/index.ts';
import { getPartnerUserHandler, getUserHandler } from './operations/get-user.ts';
import { listFailuresHandler } from './operations/list-failures.ts';
import { onboardUsersHandler } from './operations/onboard-users.ts';
import { createTierHandler, listTiersHandler } from './operations/tiers.ts';
import { upgradeTierHandler } from './operations/upgrade-tier.ts';
import { startRequestProcessor } from './processing/request-processor.ts';

export async function startOnboarding(env: NodeJS.ProcessEnv = process.env): Promise<Stoppable> {
  const config = onboardingConfig(env);
  const log = createLogger('onboarding', config.LOG_LEVEL);
  const orm = await openDatabase({
    url: config.databaseUrl,
    entities: onboardingEntities,
    migrations: onboardingMigrations,
    log,
  });
  const nc = await connectBus(config.NATS_URL, 'onboarding');
  await ensureEventsStream(nc);
  const relay = startOutboxRelay({ orm, nc, log });
  const processor = startRequestProcessor({ orm, relay, log, config });
  const deps: OnboardingDeps = { orm, config, processor };
  const service = serveOperations(nc, {
    service: 'onboarding',
    version: '1.0.0',
    description: "partners' users and tiers; bulk onboarding",
    log,
    around: requestScope(orm),
    metricsPort: config.METRICS_PORT,
    handlers: [
      onboardUsersHandler(deps),
      getUserHandler(deps),
      getPartnerUserHandler(deps),
      createTierHandler(deps),
      listTiersHandler(deps),
      upgradeTierHandler(deps),
      listFailuresHandler(deps),
    ],
  });
  log.info({ id: service.id }, 'onboarding started');
  return {
    async stop() {
      await service.stop();
      await processor.stop();
      await relay.stop();
      await nc.drain();
      await orm.close();
    },
  };
}
