import { startService } from '@coin/startup';
import { onboardingConfig } from './config.ts';
import type { OnboardingDeps } from './deps.ts';
import { startRequestProcessor } from './domain/processing/request-processor.ts';
import { onboardingMigrations } from './migrations/index.ts';
import { getPartnerUserHandler, getUserHandler } from './operations/get-user.ts';
import { listFailuresHandler } from './operations/list-failures.ts';
import { onboardUsersHandler } from './operations/onboard-users.ts';
import {
  getOnboardingRequestHandler,
  listOnboardingRequestsHandler,
  listUsersHandler,
} from './operations/onboarding-requests.ts';
import { createTierHandler, listTiersHandler } from './operations/tiers.ts';
import { upgradeTierHandler } from './operations/upgrade-tier.ts';

export async function startOnboarding(env: NodeJS.ProcessEnv = process.env) {
  return startService(onboardingConfig(env), {
    description: "partners' users and tiers; bulk onboarding",
    outbox: true,
    start({ config, db, relay, log, background }) {
      const processor = background(startRequestProcessor({ db, relay, log, config }), 'request processor');
      const deps: OnboardingDeps = { db, config, processor, relay };
      return [
        onboardUsersHandler(deps),
        getUserHandler(deps),
        getPartnerUserHandler(deps),
        createTierHandler(deps),
        listTiersHandler(deps),
        upgradeTierHandler(deps),
        listFailuresHandler(deps),
        getOnboardingRequestHandler(deps),
        listOnboardingRequestsHandler(deps),
        listUsersHandler(deps),
      ];
    },
    database: { migrations: onboardingMigrations },
  });
}
