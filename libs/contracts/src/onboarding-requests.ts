import { z } from 'zod';
import { guid, isoTimestamp, pagedList, pageOf, pageQuery } from './common.ts';
import { operationsOf } from './operation.ts';

const { http } = operationsOf('onboarding');

/** A user an onboard-users request could not store, and why. */
export const onboardingFailureSchema = z.object({ user: z.string(), reason: z.string() });

/** An onboard-users request as a partner follows it: how far it got and how many users failed. */
const onboardingRequestSchema = z
  .object({
    /** The id in the answer's `Location`, and the webhook's `requestId`. */
    id: guid,
    status: z.enum(['pending', 'done']),
    usersCount: z.number().int(),
    /** Users handled so far (stored or failed). */
    processedCount: z.number().int(),
    failedCount: z.number().int(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
  })
  .meta({
    id: 'OnboardingRequest',
    description: 'An onboard-users request: how far it got and how many users failed.',
  });

export const getOnboardingRequest = http('getOnboardingRequest', 'GET /api/v1/laas/onboarding-requests/:id', {
  permission: 'read',
  message: 'onboarding request returned',
  summary: 'How an onboarding request is going: progress, counts and its failures, a page at a time',
  schemas: {
    params: z.object({ id: guid }),
    query: z.object(pageQuery),
    response: onboardingRequestSchema.extend({ failures: pageOf(onboardingFailureSchema) }).meta({
      id: 'OnboardingRequestDetail',
      description: 'An onboarding request with a page of its failures.',
    }),
  },
});

export const listOnboardingRequests = http('listOnboardingRequests', 'GET /api/v1/laas/onboarding-requests', {
  permission: 'read',
  message: 'onboarding requests returned',
  summary: 'Your onboarding requests, newest first',
  schemas: pagedList(onboardingRequestSchema),
});
