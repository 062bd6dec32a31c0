import { z } from 'zod';
import { guid, isoTimestamp } from './common.ts';
import { defineOperation, type Operation } from './operation.ts';

/** A partner's user as stored by onboarding (the specification's "stored user"). */
export const storedUserSchema = z.object({
  id: guid,
  userId: guid,
  userData: z.record(z.string(), z.unknown()).nullable(),
  tierId: guid.nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export type StoredUser = z.infer<typeof storedUserSchema>;

/**
 * Internal: the user `userId` of partner `partnerId`, or a 404 AppError when that partner has no
 * such user. Wallet and rules ask this before coins can reach a user.
 */
export const getUser = defineOperation({
  service: 'onboarding',
  name: 'getUser',
  schemas: {
    body: z.object({ partnerId: guid, userId: guid }),
    response: storedUserSchema,
  },
});

/** The onboarding service's operations (HTTP routes and internal NATS subjects). */
export const onboardingOperations: readonly Operation[] = [getUser];
