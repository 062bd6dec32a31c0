import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { onboarding } from '@coin/contracts';
import { boundQuery } from '@coin/db';
import type { OnboardingDeps } from '../deps.ts';
import { requirePartner } from './partner.ts';

/**
 * The synchronous part: one insert of one row holding the whole request, under this replica's
 * lease, then the answer. The users are inserted in the background by the request processor.
 */
export function onboardUsersHandler(deps: OnboardingDeps) {
  return handle(onboarding.onboardUsers, async ({ partnerId, body }) => {
    const partner = requirePartner(partnerId);
    const id = randomUUID();
    await boundQuery(
      deps.orm.em,
      `INSERT INTO onboarding_requests (id, partner_id, users, user_count, lease_until)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')`,
      [id, partner, JSON.stringify(body.users), body.users.length, deps.config.ONBOARDING_LEASE_MS],
    );
    deps.processor.accept({ id, partnerId: partner, users: body.users });
    return { requestId: id };
  });
}
