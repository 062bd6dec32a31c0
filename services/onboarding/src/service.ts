import { startAppliedEventsRetention } from '@coin/events';
import { startService } from '@coin/startup';
import { onboardingConfig } from './config.ts';
import { consumeEarnings } from './consumers/earnings.ts';
import type { OnboardingDeps } from './deps.ts';
import { startRequestProcessor } from './domain/processing/request-processor.ts';
import { startTierReviews } from './domain/tiers/review-job.ts';
import { onboardingMigrations } from './migrations/index.ts';
import { getPartnerUserHandler, getUserHandler } from './operations/get-user.ts';
import { listFailuresHandler } from './operations/list-failures.ts';
import { onboardUsersHandler } from './operations/onboard-users.ts';
import {
  getOnboardingRequestHandler,
  listOnboardingRequestsHandler,
  listUsersHandler,
} from './operations/onboarding-requests.ts';
import {
  createTierHandler,
  getTierPolicyHandler,
  listTiersHandler,
  setTierPolicyHandler,
} from './operations/tiers.ts';
import { upgradeTierHandler } from './operations/upgrade-tier.ts';

export async function startOnboarding(env: NodeJS.ProcessEnv = process.env) {
  return startService(onboardingConfig(env), {
    description: "partners' users and tiers; bulk onboarding",
    outbox: true,
    async start({ config, db, nc, relay, log, background }) {
      const processor = background(startRequestProcessor({ db, relay, log, config }), 'request processor');
      background(startTierReviews({ db, relay, log, pollMs: config.TIER_REVIEW_POLL_MS }), 'tier reviews');
      background(await consumeEarnings({ db, nc, relay, log }), 'earnings consumer');
      background(startAppliedEventsRetention({ db, log, service: config.service }), 'applied ids purge');
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
        getTierPolicyHandler(deps),
        setTierPolicyHandler(deps),
      ];
    },
    database: { migrations: onboardingMigrations },
  });
}
