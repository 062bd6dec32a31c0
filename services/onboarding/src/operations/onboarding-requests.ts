import { handle } from '@coin/bus';
import { onboarding, paginate } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { OnboardingDeps } from '../deps.ts';
import { storedUser } from '../domain/processing/stored-user.ts';
import { failurePage, findRequest, requestPage, userPage } from '../domain/requests/request-status.ts';

const window = (q: { page: number; limit: number }) => ({ limit: q.limit, offset: (q.page - 1) * q.limit });

export function getOnboardingRequestHandler(deps: OnboardingDeps) {
  return handle(onboarding.getOnboardingRequest, async ({ partnerId, params, query }) => {
    const em = deps.db.em;
    const request = await findRequest(em, partnerId, params.id);
    if (!request) throw AppError.notFound('onboarding request not found');
    const failed = await failurePage(em, request.id, window(query));
    return {
      ...request,
      failures: { data: failed, ...paginate(request.failedCount, query.page, query.limit) },
    };
  });
}

export function listOnboardingRequestsHandler(deps: OnboardingDeps) {
  return handle(onboarding.listOnboardingRequests, async ({ partnerId, query }) => {
    const { requests, count } = await requestPage(deps.db.em, partnerId, window(query));
    return { data: requests, ...paginate(count, query.page, query.limit) };
  });
}

export function listUsersHandler(deps: OnboardingDeps) {
  return handle(onboarding.listUsers, async ({ partnerId, query }) => {
    const { rows, count } = await userPage(deps.db.em, partnerId, window(query), query.search);
    return { data: rows.map(storedUser), ...paginate(count, query.page, query.limit) };
  });
}
