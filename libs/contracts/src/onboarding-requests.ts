import { z } from 'zod';
import { guid, isoTimestamp, pageQuery, paginationBlock } from './common.ts';
import { defineOperation } from './operation.ts';

/** An onboard-users request as a partner follows it: how far it got and how many users failed. */
export const onboardingRequestSchema = z.object({
  /** The id in the answer's `Location`, and the webhook's `requestId`. */
  id: guid,
  status: z.enum(['pending', 'done']),
  usersCount: z.number().int(),
  /** Users handled so far (stored or failed). */
  processedCount: z.number().int(),
  failedCount: z.number().int(),
  createdAt: isoTimestamp,
  completedAt: isoTimestamp.nullable(),
});

export const getOnboardingRequest = defineOperation({
  service: 'onboarding',
  name: 'getOnboardingRequest',
  http: {
    method: 'GET',
    path: '/api/v1/laas/onboarding-requests/:id',
    auth: 'partner',
    message: 'onboarding request returned',
    summary: 'How an onboarding request is going: progress, counts and its failures, a page at a time',
  },
  schemas: {
    params: z.object({ id: guid }),
    query: z.object(pageQuery),
    response: onboardingRequestSchema.extend({
      failures: z.object({
        data: z.array(z.object({ user: z.string(), reason: z.string() })),
        ...paginationBlock,
      }),
    }),
  },
});

export const listOnboardingRequests = defineOperation({
  service: 'onboarding',
  name: 'listOnboardingRequests',
  http: {
    method: 'GET',
    path: '/api/v1/laas/onboarding-requests',
    auth: 'partner',
    message: 'onboarding requests returned',
    summary: 'Your onboarding requests, newest first',
  },
  schemas: {
    query: z.object(pageQuery),
    response: z.object({ data: z.array(onboardingRequestSchema), ...paginationBlock }),
  },
});
