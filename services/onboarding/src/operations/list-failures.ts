import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import type { OnboardingDeps } from '../deps.ts';
import { failuresPage } from '../domain/requests/request-store.ts';

/** Internal: a page of a processed request's failures, for the webhook that lists them all. */
export function listFailuresHandler(deps: OnboardingDeps) {
  return handle(onboarding.listFailures, async ({ partnerId, body }) =>
    failuresPage(deps.db.em, partnerId, body),
  );
}
