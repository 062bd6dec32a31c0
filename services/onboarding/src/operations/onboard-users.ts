import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import type { OnboardingDeps } from '../deps.ts';
import { storeRequest } from '../domain/requests/request-store.ts';

/**
 * The synchronous part: one insert of one row holding the whole request, due at once, then the
 * answer. The users are inserted in the background by the request processor.
 */
export function onboardUsersHandler(deps: OnboardingDeps) {
  return handle(onboarding.onboardUsers, async ({ partnerId, body }) => {
    const id = randomUUID();
    await storeRequest(deps.db.em, { id, partnerId, users: body.users });
    deps.processor.accept({ id, users: body.users });
    return { requestId: id };
  });
}
